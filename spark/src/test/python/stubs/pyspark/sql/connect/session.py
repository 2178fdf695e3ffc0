"""A stand-in for pyspark.sql.connect.session: a session with no JVM behind it."""

from pyspark.errors import PySparkAttributeError

_JVM_ATTRIBUTES = ("_jsc", "_jconf", "_jvm", "_jsparkSession", "sparkContext")


class SparkSession:
    """Refuses the attributes that reach a JVM, as PySpark's Connect session does."""

    def __getattr__(self, name):
        if name in _JVM_ATTRIBUTES:
            raise PySparkAttributeError(
                f"[JVM_ATTRIBUTE_NOT_SUPPORTED] Attribute `{name}` is not supported in Spark Connect")
        raise AttributeError(name)
