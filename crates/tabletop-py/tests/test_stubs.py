"""The type stubs name what the modules really have."""

import ast
import importlib
import pathlib

import pytest

import tabletop


@pytest.mark.parametrize("name", ["reversi", "nardy", "battleship", "sudoku"])
def test_stub_names_exist(name):
    module = importlib.import_module(f"tabletop.{name}")
    stub = pathlib.Path(tabletop.__file__).with_name(f"{name}.pyi")
    tree = ast.parse(stub.read_text())
    top = [n for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))]
    assert top
    for node in top:
        assert hasattr(module, node.name), f"{name}.pyi names {node.name}, the module has none"
        if isinstance(node, ast.ClassDef):
            cls = getattr(module, node.name)
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                    assert hasattr(cls, item.name), f"{name}.{node.name}.{item.name}"
    assert pathlib.Path(tabletop.__file__).with_name("py.typed").exists()
