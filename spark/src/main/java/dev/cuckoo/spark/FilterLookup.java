package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import java.util.Objects;
import java.util.function.LongPredicate;
import java.util.function.Predicate;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.TypeCheckResult;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GetStructField;
import org.apache.spark.sql.catalyst.expressions.ScalarSubquery;
import org.apache.spark.sql.catalyst.expressions.codegen.CodeBlock;
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenContext;
import org.apache.spark.sql.catalyst.expressions.codegen.ExprCode;
import org.apache.spark.sql.catalyst.expressions.codegen.FalseLiteral$;
import org.apache.spark.sql.catalyst.expressions.codegen.JavaCode;
import org.apache.spark.sql.execution.ExecSubqueryExpression;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The Catalyst expression behind {@link CuckooSpark#mightContain} and the SQL function {@code
 * cuckoo_might_contain}: true where the key might be in the filter, false where it is not or is
 * null (or, in SQL, where the filter's bytes are null).
 *
 * <p>A Java UDF would be handed each value as a Java object: a string decoded from Spark's
 * UTF-8 into a {@code String} (which the filter then encodes back to UTF-8 to hash), a long
 * boxed. This expression takes the value as Spark holds it, and its generated code (whole-stage
 * code generation, so the lookup is inlined into the operator's loop) passes a long as a long
 * and a string as its UTF-8 bytes where they lie, so a row costs its hash and two bucket reads.
 * The column's type is checked when the query is analysed, on the driver: another type fails
 * the query before any job, with Spark's {@code DATATYPE_MISMATCH} error.
 *
 * <p>The filter is either fixed ({@link ExecutorFilter}: a broadcast, a mapped file) or, in SQL,
 * a BINARY child that is one value for the whole query: a literal or an uncorrelated scalar
 * subquery, as Spark's {@code BloomFilterMightContain} requires of its filter. When the plan
 * runs its value is broadcast, once per distinct bytes, and read into a filter once per
 * executor, as {@link CuckooSpark#mightContain} does; where it cannot be (interpreted
 * evaluation), each task evaluates it once and {@link SharedFilter#of(byte[])} reads equal bytes
 * into a filter once per JVM. A row never costs more than with a broadcast. A child that is a column (the join form,
 * {@code FROM t, f WHERE cuckoo_might_contain(f.bytes, t.k)}) is refused at analysis, naming the
 * scalar subquery to write instead: a join hands every row its own copy of the bytes, which
 * made each row cost a copy of the whole filter.
 *
 * <p>The generated code reaches the lookup through {@link LongPredicate} or {@link Predicate},
 * public interfaces the generated class (which has no package) can name, so the lookup itself
 * stays package-private. It extends {@code Expression} rather than {@code UnaryExpression},
 * whose final, erased {@code withNewChildrenInternal} javac does not see as implementing {@code
 * TreeNode}'s generic one, and is {@code Serializable} itself, as Catalyst's case classes are (a
 * plan that is not compiled ships its expressions to the tasks).
 */
final class FilterLookup extends Expression implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** The filter's file bytes, a BINARY column; null when the filter is fixed. */
  private final Expression file;
  private final Expression key;
  /** The fixed filter; null when the file child gives it. */
  private final ExecutorFilter filter;
  /** The lookup {@link #eval} uses with a fixed filter, made on its first row. */
  private transient volatile ObjectKeys interpreted;

  private FilterLookup(Expression file, Expression key, ExecutorFilter filter) {
    this.file = file;
    this.key = key;
    this.filter = filter;
  }

  /** A lookup in a fixed filter. */
  FilterLookup(Expression key, ExecutorFilter filter) {
    this(null, key, filter);
  }

  /** A lookup in the filter whose file bytes {@code file} gives: the SQL function. */
  FilterLookup(Expression file, Expression key) {
    this(file, key, null);
  }

  /**
   * Catalyst copies a node by finding its constructor reflectively, which it cannot call on a
   * package-private class; these two copies name the constructor instead.
   */
  @Override
  public Expression makeCopy(Object[] args) {
    return new FilterLookup((Expression) args[0], (Expression) args[1], (ExecutorFilter) args[2]);
  }

  @Override
  @SuppressWarnings("NoCloneCheck") // Catalyst's clone: a new node over cloned children, as TreeNode's is
  public Expression clone() {
    return new FilterLookup(file == null ? null : file.clone(), key.clone(), filter);
  }

  @Override
  public Seq<Expression> children() {
    return CollectionConverters.asScala(file == null ? java.util.List.of(key) : java.util.List.of(file, key)).toSeq();
  }

  @Override
  public Expression withNewChildrenInternal(IndexedSeq<Expression> newChildren) {
    return file == null ? new FilterLookup(null, newChildren.apply(0), filter)
        : new FilterLookup(newChildren.apply(0), newChildren.apply(1), null);
  }

  @Override
  public DataType dataType() {
    return DataTypes.BooleanType;
  }

  @Override
  public boolean nullable() {
    return false;
  }

  @Override
  public String prettyName() {
    return "cuckoo_might_contain";
  }

  @Override
  public TypeCheckResult checkInputDataTypes() {
    if (file != null) {
      DataType type = file.dataType();
      if (!type.equals(DataTypes.BinaryType) && !type.equals(DataTypes.NullType)) {
        return SqlFunctions.mismatch(file, "first", "\"BINARY\"");
      }
      if (!givenOnce(file)) {
        return SqlFunctions.failure("the filter " + file.sql() + " is a column, which would bring its own copy of"
            + " the filter's bytes to every row", "; give the filter once, as a scalar subquery: "
            + prettyName() + "(" + subqueryFor(file) + ", " + key.sql() + "), or as a literal");
      }
    }
    TypeCheckResult k = SqlFunctions.keyTypeMismatch(key, file == null ? "first" : "second");
    if (k != null) {
      return k;
    }
    String problem = problemAtAnalysis();
    if (problem != null) {
      // Thrown, not returned as a failed check: the optimizer inlines a one-row subquery
      // (SELECT X'..') as its literal and checks the plan again, where a failed check would read
      // as Spark's internal "plan became unresolved" instead of this.
      throw SqlFunctions.raise(SqlFunctions.invalidValue(prettyName(), "filter", problem));
    }
    return TypeCheckResult.TypeCheckSuccess$.MODULE$;
  }

  /**
   * What is wrong with the filter for these keys, where analysis can tell: bytes that are not a
   * filter file, or a filter built from keys of another kind ({@link KeyColumn#mismatch}). A
   * fixed filter says its spec on the driver; a literal (anything foldable) is read there, once
   * per distinct bytes ({@link SharedFilter#of(byte[])}, which the tasks of a local session then
   * share). A subquery's value is not known until the plan runs: {@link #generatedSource} checks
   * it on the driver then, before it is broadcast.
   *
   * @return the problem, or null where there is none or it cannot be known yet
   */
  private String problemAtAnalysis() {
    if (filter != null) {
      return keyColumn().mismatch(filter.knownKind(), key.sql());
    }
    if (!file.foldable()) {
      return null;
    }
    Object bytes = file.eval(null);
    return bytes == null ? null : problem((byte[]) bytes);
  }

  /** What is wrong with these filter bytes for these keys, or null: {@link #problemAtAnalysis}. */
  private String problem(byte[] bytes) {
    CuckooFilter f;
    try {
      f = SharedFilter.of(bytes);
    } catch (IllegalArgumentException e) {
      return "the filter " + file.sql() + ": " + e.getMessage();
    }
    return keyColumn().mismatch(f, key.sql());
  }

  private KeyColumn keyColumn() {
    return KeyColumn.of(key.dataType(), key.sql());
  }

  /**
   * The scalar subquery that gives a column's filter once, with the user's own names: {@code
   * (SELECT bytes FROM f)} for {@code f.bytes}; {@code <table>} where the column has no table.
   */
  private static String subqueryFor(Expression column) {
    if (column instanceof AttributeReference a) {
      Seq<String> qualifier = a.qualifier();
      return "(SELECT " + a.name() + " FROM " + (qualifier.isEmpty() ? "<table>" : qualifier.last()) + ")";
    }
    return "(SELECT " + column.sql() + " FROM <table>)";
  }

  /**
   * Whether a filter's bytes are one value for the whole query, which a task evaluates once: a
   * literal (or anything foldable), or a scalar subquery that refers to no outer row, whose
   * result Spark computes on the driver and ships with the plan. Spark's own {@code
   * might_contain} asks the same of its Bloom filter. The check holds through planning, where
   * the subquery becomes its physical form (and stays one value): an expression that fails it
   * is unresolved, and Spark would refuse the plan.
   */
  private static boolean givenOnce(Expression file) {
    // The optimizer may merge scalar subqueries into one and take ours out of its struct, and
    // inlines a subquery over one row (SELECT X'..'), or a view of one, as its aliased expression.
    Expression e = file instanceof GetStructField field ? field.child() : file;
    e = e instanceof Alias alias ? alias.child() : e;
    return file.foldable() || (e instanceof ScalarSubquery s && s.outerAttrs().isEmpty())
        || e instanceof ExecSubqueryExpression || (e.references().isEmpty() && e.deterministic());
  }

  @Override
  public Object eval(InternalRow row) {
    ObjectKeys keys = interpreted;
    if (keys == null) {
      interpreted = keys = new ObjectKeys(source(), keyColumn(), key.sql());
    }
    return keys.test(key.eval(row));
  }

  /** Where the filter comes from: the fixed one, or the file child, evaluated once per task. */
  private ExecutorFilter source() {
    return filter != null ? filter : new ExecutorFilter.ConstantFile(file);
  }

  /**
   * The source generated code looks the filter up in. Whole-stage code is generated on the
   * driver when the plan runs, after its subqueries: there a SQL filter argument's bytes are
   * known, and are broadcast (once per distinct bytes), so the tasks share the filter as they
   * share {@code CuckooSpark.mightContain}'s rather than each deserializing the bytes with its
   * plan. Elsewhere (code generated in a task, or for {@code explain} before the subqueries ran,
   * when evaluating the argument throws) each task evaluates the argument itself.
   */
  private ExecutorFilter generatedSource() {
    if (filter != null || TaskContext.get() != null) {
      return source();
    }
    Object bytes;
    try {
      bytes = file.eval(null);
    } catch (RuntimeException notYetRun) {
      return source();
    }
    if (bytes != null) {
      String problem = problem((byte[]) bytes);
      if (problem != null) {
        throw SqlFunctions.raise(SqlFunctions.invalidValue(prettyName(), "filter", problem));
      }
    }
    SparkSession spark = SparkSession.getActiveSession().getOrElse(() -> null);
    return bytes == null || spark == null ? source()
        : new ExecutorFilter.Broadcasted(SharedFilter.broadcast(spark.sparkContext(), (byte[]) bytes), null);
  }

  @Override
  public ExprCode doGenCode(CodegenContext ctx, ExprCode ev) {
    ExprCode k = key.genCode(ctx);
    boolean number = key.dataType().equals(DataTypes.LongType) || key.dataType().equals(DataTypes.IntegerType);
    ExecutorFilter source = generatedSource();
    String ref = number
        ? ctx.addReferenceObj("cuckooLookup", new LongKeys(source, keyColumn(), key.sql()),
            LongPredicate.class.getName())
        : ctx.addReferenceObj("cuckooLookup", new ObjectKeys(source, keyColumn(), key.sql()),
            Predicate.class.getName());
    String test = number ? ref + ".test((long) " + k.value() + ")" : ref + ".test((Object) " + k.value() + ")";
    String code = k.code() + "\nboolean " + ev.value() + " = !" + k.isNull() + " && " + test + ";";
    return ev.copy(block(code), FalseLiteral$.MODULE$, ev.value());
  }

  /** Generated Java code as Catalyst's block of it. */
  static CodeBlock block(String code) {
    return new CodeBlock(CollectionConverters.asScala(java.util.List.of(code)).toSeq(),
        CollectionConverters.asScala(java.util.List.<JavaCode>of()).toSeq());
  }

  @Override
  public int productArity() {
    return 3;
  }

  @Override
  public Object productElement(int n) {
    return switch (n) {
      case 0 -> file;
      case 1 -> key;
      case 2 -> filter;
      default -> throw new IndexOutOfBoundsException(n);
    };
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof FilterLookup;
  }

  /** Equal as a case class is: the same children over the same filter, so equal plans compare equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof FilterLookup l && Objects.equals(l.file, file) && l.key.equals(key)
        && Objects.equals(l.filter, filter);
  }

  @Override
  public int hashCode() {
    return Objects.hash(file, key, filter);
  }

  /**
   * A lookup's hold on its filter: the source's filter, kept after the first row. A task has its
   * own copy of the plan's objects, so this costs a row one field read where asking the source
   * would cost a lock ({@code Broadcast.value} is synchronized), a map lookup (a mapped file) or
   * the file child's evaluation and its bytes' checksum (SQL). The filter is null where SQL gave
   * null bytes: then nothing is contained.
   */
  private abstract static class KeyLookup implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final ExecutorFilter source;
    private final KeyColumn keys;
    private final String keySql;
    private transient volatile boolean held;
    private transient CuckooFilter filter;

    KeyLookup(ExecutorFilter source, KeyColumn keys, String keySql) {
      this.source = source;
      this.keys = keys;
      this.keySql = keySql;
    }

    /**
     * @throws IllegalArgumentException where the filter was built from keys of another kind: the
     *     driver refuses that wherever it knows the filter, and this is where it did not
     */
    final CuckooFilter filter() {
      if (!held) {
        CuckooFilter f = source.filter();
        String problem = f == null ? null : keys.mismatch(f, keySql);
        if (problem != null) {
          throw new IllegalArgumentException(problem);
        }
        filter = f;
        held = true;
      }
      return filter;
    }
  }

  /** The lookup of a bigint or int column's rows: the long itself (an int widened, as Java does). */
  private static final class LongKeys extends KeyLookup implements LongPredicate {
    private static final long serialVersionUID = 1L;

    LongKeys(ExecutorFilter source, KeyColumn keys, String keySql) {
      super(source, keys, keySql);
    }

    @Override
    public boolean test(long key) {
      CuckooFilter f = filter();
      return f != null && f.mightContain(key);
    }
  }

  /**
   * The lookup of a value as Catalyst holds it, by the key rule ({@link KeyColumn}): a string's
   * UTF-8 bytes hashed where they lie, a binary's bytes, a long, an int widened.
   */
  private static final class ObjectKeys extends KeyLookup implements Predicate<Object> {
    private static final long serialVersionUID = 1L;

    ObjectKeys(ExecutorFilter source, KeyColumn keys, String keySql) {
      super(source, keys, keySql);
    }

    @Override
    public boolean test(Object key) {
      CuckooFilter f = key == null ? null : filter();
      return f != null && KeyColumn.mightContain(f, key);
    }
  }
}
