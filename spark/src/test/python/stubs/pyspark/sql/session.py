"""A stand-in for pyspark.sql.session: the builder of a session."""


class SparkSession:
    class Builder:
        """Keeps what it was set to in ``_options``, as PySpark's builder does, each value a string."""

        def __init__(self):
            self._options = {}

        def config(self, key, value):
            self._options[key] = str(value)
            return self
