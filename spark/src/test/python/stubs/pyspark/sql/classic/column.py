"""A stand-in for pyspark.sql.classic.column: PySpark 4's classic Column, around a Java column."""


class Column:
    def __init__(self, jc):
        self._jc = jc
