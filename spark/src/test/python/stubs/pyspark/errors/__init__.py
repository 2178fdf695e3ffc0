"""A stand-in for pyspark.errors: the AttributeError a Connect object raises for a JVM attribute."""


class PySparkAttributeError(AttributeError):
    pass
