package dev.cuckoo.spark;

import java.util.function.Function;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.TypeCheckResult;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenContext;
import org.apache.spark.sql.catalyst.expressions.codegen.ExprCode;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The SQL function {@code cuckoo_key(value)}: a key's bytes by the library's rule ({@link
 * KeyColumn}), null for null. A value of another type fails the query at analysis, on the
 * driver. (Built as an expression rather than a UDF so that it can be typed: a Java UDF of
 * {@code Object} takes any argument and fails in the tasks.)
 */
final class KeyBytes extends Expression implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  /** The encoding, shared by generated code and {@link #eval}; it holds nothing. */
  private static final Encoder ENCODER = new Encoder();

  private final Expression value;

  KeyBytes(Expression value) {
    this.value = value;
  }

  @Override
  public Expression makeCopy(Object[] args) {
    return new KeyBytes((Expression) args[0]);
  }

  @Override
  @SuppressWarnings("NoCloneCheck") // Catalyst's clone: a new node over a cloned child, as TreeNode's is
  public Expression clone() {
    return new KeyBytes(value.clone());
  }

  @Override
  public Seq<Expression> children() {
    return CollectionConverters.asScala(java.util.List.of(value)).toSeq();
  }

  @Override
  public Expression withNewChildrenInternal(IndexedSeq<Expression> newChildren) {
    return new KeyBytes(newChildren.apply(0));
  }

  @Override
  public DataType dataType() {
    return DataTypes.BinaryType;
  }

  @Override
  public boolean nullable() {
    return value.nullable();
  }

  /** A key of a constant is a constant, as any expression of one child that depends only on it. */
  @Override
  public boolean foldable() {
    return value.foldable();
  }

  @Override
  public String prettyName() {
    return "cuckoo_key";
  }

  @Override
  public TypeCheckResult checkInputDataTypes() {
    TypeCheckResult key = SqlFunctions.keyTypeMismatch(value, "first");
    return key != null ? key : TypeCheckResult.TypeCheckSuccess$.MODULE$;
  }

  @Override
  public Object eval(InternalRow row) {
    return ENCODER.apply(value.eval(row));
  }

  @Override
  public ExprCode doGenCode(CodegenContext ctx, ExprCode ev) {
    ExprCode v = value.genCode(ctx);
    String ref = ctx.addReferenceObj("cuckooKey", ENCODER, Function.class.getName());
    boolean number = value.dataType().equals(DataTypes.LongType) || value.dataType().equals(DataTypes.IntegerType);
    String boxed = number ? "java.lang.Long.valueOf((long) " + v.value() + ")" : "(Object) " + v.value();
    String code = v.code() + "\nboolean " + ev.isNull() + " = " + v.isNull() + ";\nbyte[] " + ev.value() + " = "
        + ev.isNull() + " ? null : (byte[]) " + ref + ".apply(" + boxed + ");";
    return ev.copy(FilterLookup.block(code), ev.isNull(), ev.value());
  }

  @Override
  public int productArity() {
    return 1;
  }

  @Override
  public Object productElement(int n) {
    if (n != 0) {
      throw new IndexOutOfBoundsException(n);
    }
    return value;
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof KeyBytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyBytes k && k.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  /** A value as Catalyst holds it to its key bytes; a new array each call, as a row's value outlives the call. */
  private static final class Encoder implements Function<Object, Object>, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public Object apply(Object value) {
      if (value == null) {
        return null;
      }
      if (value instanceof byte[] b) {
        return b;
      }
      return KeyColumn.catalystBytes(value, new byte[8]);
    }
  }
}
