"""A stand-in for pyspark.sql.session: a classic session, and the builder of one."""


class SparkContext:
    def __init__(self, jvm):
        self._jvm = jvm


class SparkSession:
    """A classic session: its Java session, and the JVM py4j reaches through its SparkContext."""

    class Builder:
        """Keeps what it was set to in ``_options``, as PySpark's builder does, each value a string."""

        def __init__(self):
            self._options = {}

        def config(self, key, value):
            self._options[key] = str(value)
            return self

    def __init__(self, jvm, jsession):
        self._jvm = jvm
        self._jsparkSession = jsession
        self.sparkContext = SparkContext(jvm)
