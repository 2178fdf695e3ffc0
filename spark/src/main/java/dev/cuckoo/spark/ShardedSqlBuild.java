package dev.cuckoo.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.classic.Dataset;
import org.apache.spark.sql.classic.ExpressionUtils$;
import org.apache.spark.sql.execution.ProjectExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import scala.PartialFunction$;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.jdk.javaapi.FunctionConverters;
import scala.reflect.ClassTag$;

/**
 * Plans SQL's {@code SELECT cuckoo_build(key, 'config') FROM t}, a global aggregate of the build
 * alone, as the sharded build that {@link CuckooSpark#build} makes ({@link ShardBuild}), so that
 * no task holds more than a shard: as an aggregate, the task that finishes held 8 bytes for every
 * distinct key and then the whole table, and 100M keys could not be built in a heap of 1 GB.
 * The driver receives the shards, joins them in a local temporary file and reads its bytes: the
 * query's one value, over which expressions of it ({@code length(cuckoo_build(...))}) are then
 * computed. A build beside other aggregates, or grouped, stays the aggregate, whose buffers ask
 * Spark's memory manager first ({@link BuildMemory}).
 *
 * <p>The filter it makes is split into shards ({@code shards=S} in its spec), as a Java build's
 * is; lookups read it as any filter.
 */
final class ShardedSqlBuild extends SparkStrategy {
  /**
   * Adds the strategy to a running session's extra strategies ({@link CuckooSpark#register}),
   * once; a session made with the extension has it already.
   */
  static void addTo(org.apache.spark.sql.classic.SparkSession session) {
    List<SparkStrategy> all = new java.util.ArrayList<>(
        CollectionConverters.asJava(session.experimental().extraStrategies()));
    if (all.stream().anyMatch(s -> s instanceof ShardedSqlBuild)) {
      return;
    }
    all.add(new ShardedSqlBuild());
    session.experimental().extraStrategies_$eq(CollectionConverters.asScala(all).toSeq());
  }

  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    if (plan instanceof Aggregate agg && agg.groupingExpressions().isEmpty()) {
      List<AggregateExpression> found = new ArrayList<>();
      for (NamedExpression e : CollectionConverters.asJava(agg.aggregateExpressions())) {
        collect((Expression) e, found);
      }
      if (found.size() == 1 && found.get(0).aggregateFunction() instanceof FilterBuild build
          && !found.get(0).isDistinct() && found.get(0).filter().isEmpty()) {
        AggregateExpression built = found.get(0);
        Seq<NamedExpression> results = agg.aggregateExpressions();
        if (results.size() == 1 && results.head() instanceof Alias alias && alias.child() == built) {
          return one(new Exec(alias.toAttribute(), agg.child(), build.key(), build.configText()));
        }
        // The build inside expressions (length(cuckoo_build(...)), several of them): the build's
        // value as an attribute, and the query's expressions of it computed over its one row.
        AttributeReference value = new AttributeReference(FilterBuild.NAME, DataTypes.BinaryType, true,
            Metadata.empty(), NamedExpression$.MODULE$.newExprId(), CollectionConverters.asScala(List.<String>of()).toSeq());
        List<NamedExpression> projected = new ArrayList<>();
        for (NamedExpression e : CollectionConverters.asJava(results)) {
          projected.add((NamedExpression) ((Expression) e).transformUp(PartialFunction$.MODULE$.fromFunction(
              FunctionConverters.asScalaFromFunction((Expression x) -> x.semanticEquals(built) ? value : x))));
        }
        return one(new ProjectExec(CollectionConverters.asScala(projected).toSeq(),
            new Exec(value, agg.child(), build.key(), build.configText())));
      }
    }
    return CollectionConverters.asScala(List.<SparkPlan>of()).toSeq();
  }

  /** Adds the aggregate expressions under {@code e} to {@code found}. */
  private static void collect(Expression e, List<AggregateExpression> found) {
    if (e instanceof AggregateExpression ae) {
      found.add(ae);
      return;
    }
    for (Expression c : CollectionConverters.asJava(e.children())) {
      collect(c, found);
    }
  }

  private static Seq<SparkPlan> one(SparkPlan p) {
    return CollectionConverters.asScala(List.of(p)).toSeq();
  }

  /**
   * The build as a leaf of the physical plan: its child is planned and run by the sharded build's
   * own jobs when the value is asked for ({@link #executeCollect}, as a scalar subquery asks, or
   * {@link #doExecute}), once.
   */
  static final class Exec extends SparkPlan {
    private static final long serialVersionUID = 1L;
    private final Attribute out;
    private final LogicalPlan child;
    private final Expression key;
    private final String config;
    private transient InternalRow row;

    Exec(Attribute out, LogicalPlan child, Expression key, String config) {
      this.out = out;
      this.child = child;
      this.key = key;
      this.config = config;
    }

    /** The one row: the filter's bytes, or null where there are no non-null keys (as the aggregate gives). */
    private synchronized InternalRow row() {
      if (row == null) {
        Dataset<Row> keys = org.apache.spark.sql.classic.Dataset$.MODULE$.ofRows(session(), child)
            .select(ExpressionUtils$.MODULE$.column(key).as("k"));
        byte[] bytes = ShardBuild.planForSql(keys, "k", config);
        FilterBuild.countBuild();
        row = UnsafeProjection.create(new DataType[] {DataTypes.BinaryType})
            .apply(new GenericInternalRow(new Object[] {bytes})).copy();
      }
      return row;
    }

    @Override
    public InternalRow[] executeCollect() {
      return new InternalRow[] {row()};
    }

    @Override
    public RDD<InternalRow> doExecute() {
      return sparkContext().parallelize(CollectionConverters.asScala(List.of(row())).toSeq(), 1,
          ClassTag$.MODULE$.apply(InternalRow.class));
    }

    @Override
    public Seq<Attribute> output() {
      return CollectionConverters.asScala(List.of(out)).toSeq();
    }

    @Override
    public Seq<SparkPlan> children() {
      return CollectionConverters.asScala(List.<SparkPlan>of()).toSeq();
    }

    @Override
    public SparkPlan withNewChildrenInternal(IndexedSeq<SparkPlan> newChildren) {
      return this;
    }

    /** Catalyst copies a node reflectively through its constructor, which it cannot call here. */
    @Override
    public SparkPlan makeCopy(Object[] args) {
      return new Exec((Attribute) args[0], (LogicalPlan) args[1], (Expression) args[2], (String) args[3]);
    }

    @Override
    @SuppressWarnings("NoCloneCheck") // Catalyst's clone: a new node of the same arguments, as TreeNode's is
    public SparkPlan clone() {
      return new Exec(out, child, key, config);
    }

    @Override
    public String nodeName() {
      return "CuckooShardedBuild";
    }

    @Override
    public int productArity() {
      return 4;
    }

    @Override
    public Object productElement(int n) {
      return switch (n) {
        case 0 -> out;
        case 1 -> child;
        case 2 -> key;
        case 3 -> config;
        default -> throw new IndexOutOfBoundsException(n);
      };
    }

    @Override
    public boolean canEqual(Object that) {
      return that instanceof Exec;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Exec e && e.out.equals(out) && e.child.equals(child) && e.key.equals(key)
          && e.config.equals(config);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(out, child, key, config);
    }
  }
}
