"""Checks python/cuckoo_spark against the stand-in pyspark: python3 check_cuckoo_spark.py MODULE_DIR GUIDE_BLOCK.

Compiles the module and the guide's example (warnings are errors), looks for imports it
does not use and names in __all__ it does not define, and checks the SQL functions and
arguments each wrapper calls. Prints "ok" when all hold; raises otherwise.
"""

import ast
import pathlib
import sys
import warnings
from types import ModuleType

warnings.simplefilter("error")
module_dir, guide_block = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
source = (module_dir / "cuckoo_spark" / "__init__.py").read_text(encoding="utf-8")
tree = ast.parse(source)
compile(source, "cuckoo_spark/__init__.py", "exec")
compile(guide_block.read_text(encoding="utf-8"), "docs/guide/spark.md (python block)", "exec")

imported = set()
for node in ast.walk(tree):
    if isinstance(node, ast.Import):
        imported.update((a.asname or a.name).split(".")[0] for a in node.names)
    elif isinstance(node, ast.ImportFrom):
        imported.update(a.asname or a.name for a in node.names)
used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
unused = imported - used
assert not unused, f"imports not used: {sorted(unused)}"

sys.path.insert(0, str(module_dir))
import cuckoo_spark as cs  # noqa: E402  (after the path is set)
from pyspark.sql.session import SparkSession  # noqa: E402

missing = [n for n in cs.__all__ if not hasattr(cs, n)]
assert not missing, f"__all__ names what the module lacks: {missing}"
public = {n for n, v in vars(cs).items() if not n.startswith("_") and not isinstance(v, ModuleType)}
assert public == set(cs.__all__), f"public names not in __all__, or the reverse: {sorted(public ^ set(cs.__all__))}"
assert cs.EXTENSIONS == "dev.cuckoo.spark.CuckooSparkExtensions", cs.EXTENSIONS
assert cs.build("url", "classic?targetFpp=0.001") == (
    "call_function", "cuckoo_build", ("col", "url"), ("lit", "classic?targetFpp=0.001")), cs.build("url", "c")
assert cs.might_contain("BYTES", ("col", "url")) == ("call_function", "cuckoo_might_contain", "BYTES", ("col", "url"))
for given in (b"\x01\x02", bytearray(b"\x01\x02")):
    call = cs.might_contain(given, "url")
    assert call == ("call_function", "cuckoo_might_contain", ("lit", b"\x01\x02"), ("col", "url")), call
    assert type(call[2][1]) is bytearray, f"{type(given)} must become a literal of a bytearray: {call}"
assert cs.key("id") == ("call_function", "cuckoo_key", ("col", "id"))


# configure: ours after what the builder holds, once
ours = "dev.cuckoo.spark.CuckooSparkExtensions"
delta = "io.delta.sql.DeltaSparkSessionExtension"
for held, expected in (
        (None, ours),
        (delta, f"{delta},{ours}"),
        (f" {delta} , ", f"{delta},{ours}"),
        (f"{delta},{ours}", f"{delta},{ours}"),
        (f"{ours}, {delta}", f"{ours}, {delta}")):
    builder = SparkSession.Builder().config("spark.app.name", "a")
    if held is not None:
        builder.config("spark.sql.extensions", held)
    got = cs.configure(builder)
    assert got is builder, "configure must return the builder it was given"
    assert got._options == {"spark.app.name": "a", "spark.sql.extensions": expected}, (held, got._options)


class Unknown:
    """A builder that does not show what it holds."""

    def config(self, key, value):
        self.set = (key, value)
        return self


assert cs.configure(Unknown()).set == ("spark.sql.extensions", ours)

print("ok")
