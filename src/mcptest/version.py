"""The package's version, in a leaf module: the root (`mcptest/__init__.py`) re-exports every
layer, so a module that took the version from there would import up the layers."""

__version__ = "0.1.0"
