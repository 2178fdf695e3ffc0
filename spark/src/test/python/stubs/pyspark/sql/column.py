"""A stand-in for pyspark.sql.column: PySpark 3.5's Column, around a Java column."""


class Column:
    def __init__(self, jc):
        self._jc = jc
