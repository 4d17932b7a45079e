"""rpy-lsp's model of the `rpython.translator` package: the translation driver that
`target(driver, args)` receives and `tool.cbuild` (`ExternalCompilationInfo`). Other
modules of the package come from the search path when it has them, and are unknown
otherwise."""
