"""A stand-in for pyspark.sql.functions: each function returns what it was called with."""


class _Column(tuple):
    """What a stand-in function returns, with the Java column py4j would pass for it."""

    @property
    def _jc(self):
        return ("jc",) + tuple(self)


def call_function(name, *cols):
    return _Column(("call_function", name) + cols)


def col(name):
    return _Column(("col", name))


def lit(value):
    return _Column(("lit", value))
