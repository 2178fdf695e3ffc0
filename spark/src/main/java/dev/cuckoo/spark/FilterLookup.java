package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import java.util.Objects;
import java.util.function.BiPredicate;
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
 * the query before any job, naming the supported ones.
 *
 * <p>The filter is either fixed ({@link ExecutorFilter}: a broadcast, a mapped file) or, in SQL,
 * a BINARY child whose bytes each row brings ({@link SharedFilter#of(byte[])} reads equal bytes
 * once per JVM).
 *
 * <p>The generated code reaches the lookup through {@link LongPredicate}, {@link Predicate} or
 * {@link BiPredicate}, public interfaces the generated class (which has no package) can name, so
 * the lookup itself stays package-private. It extends {@code Expression} rather than {@code
 * UnaryExpression}, whose final, erased {@code withNewChildrenInternal} javac does not see as
 * implementing {@code TreeNode}'s generic one, and is {@code Serializable} itself, as Catalyst's
 * case classes are (a plan that is not compiled ships its expressions to the tasks).
 */
final class FilterLookup extends Expression implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  /** The SQL function's lookup, which holds nothing: generated code and {@link #eval} share it. */
  private static final FileKeys FILE_KEYS = new FileKeys();

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
    if (file != null && !file.dataType().equals(DataTypes.BinaryType)) {
      return new TypeCheckResult.TypeCheckFailure("the filter " + file.sql() + " has type "
          + file.dataType().simpleString() + ": give a filter file's bytes (binary), as cuckoo_build returns them");
    }
    try {
      KeyColumn.of(key.dataType(), key.sql());
      return TypeCheckResult.TypeCheckSuccess$.MODULE$;
    } catch (IllegalArgumentException e) {
      return new TypeCheckResult.TypeCheckFailure(e.getMessage());
    }
  }

  @Override
  public Object eval(InternalRow row) {
    Object value = key.eval(row);
    if (value == null) {
      return false;
    }
    if (file != null) {
      Object bytes = file.eval(row);
      return bytes != null && FILE_KEYS.test(bytes, value);
    }
    ObjectKeys keys = interpreted;
    if (keys == null) {
      interpreted = keys = new ObjectKeys(filter);
    }
    return keys.test(value);
  }

  @Override
  public ExprCode doGenCode(CodegenContext ctx, ExprCode ev) {
    ExprCode k = key.genCode(ctx);
    boolean number = key.dataType().equals(DataTypes.LongType) || key.dataType().equals(DataTypes.IntegerType);
    String code;
    if (file != null) {
      ExprCode f = file.genCode(ctx);
      String ref = ctx.addReferenceObj("cuckooLookup", FILE_KEYS, BiPredicate.class.getName());
      // A number boxed as the Long whose key it is: the lookup is inlined, so the box is not kept.
      String value = number ? "java.lang.Long.valueOf((long) " + k.value() + ")" : "(Object) " + k.value();
      code = f.code() + "\n" + k.code() + "\nboolean " + ev.value() + " = !" + f.isNull() + " && !" + k.isNull()
          + " && " + ref + ".test(" + f.value() + ", " + value + ");";
    } else {
      String ref = number
          ? ctx.addReferenceObj("cuckooLookup", new LongKeys(filter), LongPredicate.class.getName())
          : ctx.addReferenceObj("cuckooLookup", new ObjectKeys(filter), Predicate.class.getName());
      String test = number ? ref + ".test((long) " + k.value() + ")" : ref + ".test((Object) " + k.value() + ")";
      code = k.code() + "\nboolean " + ev.value() + " = !" + k.isNull() + " && " + test + ";";
    }
    return ev.copy(new CodeBlock(seq(code), CollectionConverters.asScala(java.util.List.<JavaCode>of()).toSeq()),
        FalseLiteral$.MODULE$, ev.value());
  }

  private static Seq<String> seq(String s) {
    return CollectionConverters.asScala(java.util.List.of(s)).toSeq();
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

  /** The SQL function's lookup: the filter of the row's file bytes, then the key in it. */
  private static final class FileKeys implements BiPredicate<Object, Object>, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean test(Object file, Object key) {
      return KeyColumn.mightContain(SharedFilter.of((byte[]) file), key);
    }
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
      return KeyColumn.mightContain(filter(), key);
    }
  }
}
