"""A stand-in for pyspark.sql: the functions, a classic session and DataFrame, their Columns, and Connect's."""
