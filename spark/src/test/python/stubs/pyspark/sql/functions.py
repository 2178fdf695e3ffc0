"""A stand-in for pyspark.sql.functions: each function returns what it was called with."""


def call_function(name, *cols):
    return ("call_function", name) + cols


def col(name):
    return ("col", name)


def lit(value):
    return ("lit", value)
