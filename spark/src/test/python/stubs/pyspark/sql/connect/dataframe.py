"""A stand-in for pyspark.sql.connect.dataframe: a DataFrame with no Java Dataset behind it."""

from pyspark.errors import PySparkAttributeError


class DataFrame:
    def __init__(self, session):
        self.sparkSession = session

    def __getattr__(self, name):
        if name in ("_jdf", "rdd"):
            raise PySparkAttributeError(
                f"[JVM_ATTRIBUTE_NOT_SUPPORTED] Attribute `{name}` is not supported in Spark Connect")
        raise AttributeError(name)
