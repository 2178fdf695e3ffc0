package dev.cuckoo.spark;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry$;
import org.apache.spark.sql.catalyst.analysis.TypeCheckResult;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.types.DataType;
import scala.Function1;
import scala.Tuple3;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.jdk.javaapi.FunctionConverters;

/**
 * The SQL functions, each with its usage text (what {@code DESCRIBE FUNCTION} shows) and a
 * builder that checks its argument count, and the analysis errors they share. Spark's error
 * classes are used so a SQL user sees the errors Spark's own functions give: {@code
 * WRONG_NUM_ARGS}, {@code DATATYPE_MISMATCH.*}, {@code INVALID_PARAMETER_VALUE.PATTERN} (with the
 * library's own message for a bad config).
 */
final class SqlFunctions {
  /** Where Spark's WRONG_NUM_ARGS message sends the user: its function reference, as Spark's functions do. */
  private static final String DOC_ROOT = "https://spark.apache.org/docs/latest";

  /** One function: its name, its usage, its arguments, and how it is made from them. */
  private record Function(String name, String usage, String arguments, String examples, String note, int arity,
      Function1<Seq<Expression>, Expression> builder) {
    ExpressionInfo info() {
      // className, db, name, usage, arguments, examples, note, group, since, deprecated, source;
      // Spark wants examples to start "\n    Examples:\n" and both to end "\n  ", as its own do.
      return new ExpressionInfo(SqlFunctions.class.getName(), null, name, usage, arguments, closed(examples),
          closed(note), "", "", "", "java_udf");
    }

    private static String closed(String section) {
      return section.isEmpty() ? section : section + "  ";
    }
  }

  private static final List<Function> FUNCTIONS = List.of(
      new Function("cuckoo_build", "_FUNC_(key, config) - An aggregate: the file bytes (BINARY) of a cuckoo"
          + " filter of the distinct non-null keys, null if there are none.",
          """

                  Arguments:
                    * key - a STRING (its UTF-8 bytes), BINARY, BIGINT or INT (8 little-endian bytes) column
                    * config - a string literal, e.g. 'classic?targetFpp=0.001'; without capacity the filter
                        is sized for the distinct keys
              """,
          """

                  Examples:
                    > SELECT cuckoo_might_contain((SELECT _FUNC_(id, 'classic?capacity=100') FROM range(10)), 7);
                     true
                    > CACHE TABLE seen AS SELECT _FUNC_(url, 'classic?targetFpp=0.001') AS bytes FROM visits;
              """,
          """

                  A filter given inline, (SELECT _FUNC_(...) FROM t), is built again by every query (and every
                  micro-batch of a stream) that runs it: build it once with CACHE TABLE and give
                  (SELECT bytes FROM seen). The filter records the key column's kind (string, binary or
                  long), and lookups of another kind are refused.
              """,
          2, args -> new FilterBuild(args.apply(0), args.apply(1))),
      new Function("cuckoo_might_contain", "_FUNC_(filter, key) - True where the key might be in the filter whose"
          + " file bytes are given; false for a null key or a null filter.",
          """

                  Arguments:
                    * filter - a filter file's bytes (BINARY), given once for the query: a literal or a
                        scalar subquery, e.g. (SELECT cuckoo_build(url, 'classic') FROM seen) or
                        (SELECT content FROM binaryFile.`/filters/seen.cuckoo`)
                    * key - a STRING, BINARY, BIGINT or INT column
              """,
          """

                  Examples:
                    > SELECT _FUNC_((SELECT cuckoo_build(id, 'classic?capacity=100') FROM range(10)), 7);
                     true
                    > SELECT count(*) FROM crawl WHERE NOT _FUNC_((SELECT bytes FROM seen), url);
                    > SELECT count(*) FROM crawl WHERE _FUNC_((SELECT content FROM binaryFile.`/f/seen.cuckoo`), url);
              """,
          "",
          2, args -> new FilterLookup(args.apply(0), args.apply(1))),
      new Function("cuckoo_key", "_FUNC_(value) - A key's bytes by the library's key rule: a string's UTF-8"
          + " bytes, a binary's bytes, a bigint's (or int's) 8 little-endian bytes; null for null.",
          "\n    Arguments:\n      * value - a STRING, BINARY, BIGINT or INT\n",
          """

                  Examples:
                    > SELECT hex(_FUNC_(1));
                     0100000000000000
                    > SELECT hex(_FUNC_('ab'));
                     6162
              """,
          "",
          1, args -> new KeyBytes(args.apply(0))));

  private SqlFunctions() {}

  /** Adds the functions to the sessions an extension point configures. */
  static void inject(SparkSessionExtensions extensions) {
    for (Function f : FUNCTIONS) {
      extensions.injectFunction(new Tuple3<>(FunctionIdentifier.apply(f.name()), f.info(), checked(f)));
    }
  }

  /** Adds the functions to one session's registry, under the names an extension's functions get. */
  static void register(FunctionRegistry registry) {
    for (Function f : FUNCTIONS) {
      registry.registerFunction(FunctionRegistry$.MODULE$.builtinFunctionIdentifier(f.name()), f.info(), checked(f));
    }
  }

  /** A function's builder, preceded by the check of its argument count. */
  private static Function1<Seq<Expression>, Expression> checked(Function f) {
    return FunctionConverters.asScalaFromFunction((Seq<Expression> args) -> {
      if (args.size() != f.arity()) {
        throw raise(wrongNumArgs(f.name(), Integer.toString(f.arity()), args.size()));
      }
      return f.builder().apply(args);
    });
  }

  /**
   * Throws an {@link AnalysisException} from code Scala calls (a function builder, a type check),
   * where Spark's own Scala code throws it: it is a checked exception only to javac, and the
   * analyzer that calls these catches and reports it as Spark's functions' errors are reported.
   *
   * @return nothing: it always throws; declared so that callers can write {@code throw raise(e)}
   */
  static RuntimeException raise(AnalysisException e) {
    throw SqlFunctions.<RuntimeException>unchecked(e);
  }

  @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"}) // the point: javac's check, erased
  private static <E extends Throwable> E unchecked(Throwable e) throws E {
    throw (E) e;
  }

  /** Spark's error for a call with another number of arguments. */
  static AnalysisException wrongNumArgs(String function, String expected, int actual) {
    return new AnalysisException("WRONG_NUM_ARGS.WITHOUT_SUGGESTION", params(Map.of("functionName", "`" + function
        + "`", "expectedNum", expected, "actualNum", Integer.toString(actual), "docroot", DOC_ROOT)));
  }

  /** Spark's type mismatch for a key of a type that is not a key type; null for a key type. */
  static TypeCheckResult keyTypeMismatch(Expression key, String ordinal) {
    try {
      KeyColumn.of(key.dataType(), key.sql());
      return null;
    } catch (IllegalArgumentException e) {
      return mismatch(key, ordinal, "(" + KeyColumn.sqlTypes() + ")");
    }
  }

  /** Spark's type mismatch: the parameter at {@code ordinal} ("first", "second") needs another type. */
  static TypeCheckResult mismatch(Expression arg, String ordinal, String requiredType) {
    return new TypeCheckResult.DataTypeMismatch("UNEXPECTED_INPUT_TYPE", params(Map.of("paramIndex", ordinal,
        "requiredType", requiredType, "inputSql", "\"" + arg.sql() + "\"", "inputType", sqlType(arg.dataType()))));
  }

  /** Spark's error for an argument that must be known when the query is analysed. */
  static TypeCheckResult nonFoldable(String name, DataType type, Expression arg) {
    return new TypeCheckResult.DataTypeMismatch("NON_FOLDABLE_INPUT", params(Map.of("inputName", "`" + name + "`",
        "inputType", sqlType(type), "inputExpr", "\"" + arg.sql() + "\"")));
  }

  /** Spark's type-check failure with the library's message, and a hint of what to write instead. */
  static TypeCheckResult failure(String message, String hint) {
    return new TypeCheckResult.DataTypeMismatch("TYPE_CHECK_FAILURE_WITH_HINT",
        params(Map.of("msg", message, "hint", hint)));
  }

  /** Spark's error for an argument whose value is wrong, with the library's message saying why. */
  static AnalysisException invalidValue(String function, String parameter, String message) {
    return new AnalysisException("INVALID_PARAMETER_VALUE.PATTERN", params(Map.of("parameter", "`" + parameter + "`",
        "functionName", "`" + function + "`", "value", message)));
  }

  private static String sqlType(DataType type) {
    return "\"" + type.sql() + "\"";
  }

  private static scala.collection.immutable.Map<String, String> params(Map<String, String> params) {
    return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(params));
  }
}
