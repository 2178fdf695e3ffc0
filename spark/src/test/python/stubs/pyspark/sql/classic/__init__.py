"""A stand-in for pyspark.sql.classic (PySpark 4): the classic Column."""
