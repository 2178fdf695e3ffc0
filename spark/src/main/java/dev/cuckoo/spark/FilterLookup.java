package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import java.util.function.LongPredicate;
import java.util.function.Predicate;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.TypeCheckResult;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.codegen.CodeBlock;
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenContext;
import org.apache.spark.sql.catalyst.expressions.codegen.ExprCode;
import org.apache.spark.sql.catalyst.expressions.codegen.FalseLiteral$;
import org.apache.spark.sql.catalyst.expressions.codegen.JavaCode;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The Catalyst expression behind {@link CuckooSpark#mightContain}: true where the key might be in
 * the filter, false where it is not or is null.
 *
 * <p>A Java UDF would be handed each value as a Java object: a string decoded from Spark's
 * UTF-8 into a {@code String} (which the filter then encodes back to UTF-8 to hash), a long
 * boxed. This expression takes the value as Spark holds it, and its generated code (whole-stage
 * code generation, so the lookup is inlined into the operator's loop) passes a long as a long
 * and a string as its UTF-8 bytes where they lie, so a row costs its hash and two bucket reads.
 * The column's type is checked when the query is analysed, on the driver: another type fails
 * the query before any job, naming the supported ones.
 *
 * <p>The generated code reaches the lookup through {@link LongPredicate} or {@link Predicate},
 * public interfaces the generated class (which has no package) can name, so the lookup itself
 * stays package-private. It extends {@code Expression} rather than {@code UnaryExpression},
 * whose final, erased {@code withNewChildrenInternal} javac does not see as implementing
 * {@code TreeNode}'s generic one.
 */
final class FilterLookup extends Expression {
  private static final long serialVersionUID = 1L;

  private final Expression child;
  private final ExecutorFilter filter;
  /** The lookup {@link #eval} uses, made on its first row. */
  private transient volatile ObjectKeys interpreted;

  FilterLookup(Expression child, ExecutorFilter filter) {
    this.child = child;
    this.filter = filter;
  }

  /**
   * Catalyst copies a node by finding its constructor reflectively, which it cannot call on a
   * package-private class; these two copies name the constructor instead.
   */
  @Override
  public Expression makeCopy(Object[] args) {
    return new FilterLookup((Expression) args[0], (ExecutorFilter) args[1]);
  }

  @Override
  @SuppressWarnings("NoCloneCheck") // Catalyst's clone: a new node over cloned children, as TreeNode's is
  public Expression clone() {
    return new FilterLookup(child.clone(), filter);
  }

  @Override
  public Seq<Expression> children() {
    return CollectionConverters.asScala(java.util.List.of(child)).toSeq();
  }

  @Override
  public Expression withNewChildrenInternal(IndexedSeq<Expression> newChildren) {
    return new FilterLookup(newChildren.apply(0), filter);
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
    try {
      KeyColumn.of(child.dataType(), child.sql());
      return TypeCheckResult.TypeCheckSuccess$.MODULE$;
    } catch (IllegalArgumentException e) {
      return new TypeCheckResult.TypeCheckFailure(e.getMessage());
    }
  }

  @Override
  public Object eval(InternalRow row) {
    Object value = child.eval(row);
    if (value == null) {
      return false;
    }
    ObjectKeys keys = interpreted;
    if (keys == null) {
      interpreted = keys = new ObjectKeys(filter);
    }
    return keys.test(value);
  }

  @Override
  public ExprCode doGenCode(CodegenContext ctx, ExprCode ev) {
    ExprCode key = child.genCode(ctx);
    boolean number = child.dataType().equals(DataTypes.LongType) || child.dataType().equals(DataTypes.IntegerType);
    String ref = number
        ? ctx.addReferenceObj("cuckooLookup", new LongKeys(filter), LongPredicate.class.getName())
        : ctx.addReferenceObj("cuckooLookup", new ObjectKeys(filter), Predicate.class.getName());
    String test = number ? ref + ".test((long) " + key.value() + ")" : ref + ".test((Object) " + key.value() + ")";
    String code = key.code() + "\nboolean " + ev.value() + " = !" + key.isNull() + " && " + test + ";";
    return ev.copy(new CodeBlock(seq(code), CollectionConverters.asScala(java.util.List.<JavaCode>of()).toSeq()),
        FalseLiteral$.MODULE$, ev.value());
  }

  private static Seq<String> seq(String s) {
    return CollectionConverters.asScala(java.util.List.of(s)).toSeq();
  }

  @Override
  public int productArity() {
    return 2;
  }

  @Override
  public Object productElement(int n) {
    return switch (n) {
      case 0 -> child;
      case 1 -> filter;
      default -> throw new IndexOutOfBoundsException(n);
    };
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof FilterLookup;
  }

  /** Equal as a case class is: the same key over the same filter, so equal plans compare equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof FilterLookup f && f.child.equals(child) && f.filter.equals(filter);
  }

  @Override
  public int hashCode() {
    return 31 * child.hashCode() + filter.hashCode();
  }

  /**
   * A lookup's hold on its filter: the source's filter, kept after the first row. A task has its
   * own copy of the plan's objects, so this costs a row one field read where asking the source
   * would cost a lock ({@code Broadcast.value} is synchronized) or a map lookup (a mapped file).
   */
  private abstract static class KeyLookup implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final ExecutorFilter source;
    private transient volatile CuckooFilter filter;

    KeyLookup(ExecutorFilter source) {
      this.source = source;
    }

    final CuckooFilter filter() {
      CuckooFilter f = filter;
      if (f == null) {
        filter = f = source.filter();
      }
      return f;
    }
  }

  /** The lookup of a bigint or int column's rows: the long itself (an int widened, as Java does). */
  private static final class LongKeys extends KeyLookup implements LongPredicate {
    private static final long serialVersionUID = 1L;

    LongKeys(ExecutorFilter source) {
      super(source);
    }

    @Override
    public boolean test(long key) {
      return filter().mightContain(key);
    }
  }

  /**
   * The lookup of a value as Catalyst holds it, by the key rule ({@link KeyColumn}): a string's
   * UTF-8 bytes hashed where they lie, a binary's bytes, a long, an int widened.
   */
  private static final class ObjectKeys extends KeyLookup implements Predicate<Object> {
    private static final long serialVersionUID = 1L;

    ObjectKeys(ExecutorFilter source) {
      super(source);
    }

    @Override
    public boolean test(Object key) {
      CuckooFilter f = filter();
      if (key instanceof UTF8String s) {
        if (s.getBaseObject() instanceof byte[] base) {
          return f.mightContain(base, (int) (s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET), s.numBytes());
        }
        return f.mightContain(s.getBytes()); // off-heap: copied
      } else if (key instanceof byte[] b) {
        return f.mightContain(b);
      } else if (key instanceof Long l) {
        return f.mightContain(l.longValue());
      } else if (key instanceof Integer i) {
        return f.mightContain(i.longValue());
      }
      throw new IllegalArgumentException("a key of class " + key.getClass().getName() + " is not a key type");
    }
  }
}
