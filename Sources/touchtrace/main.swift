// The `touchtrace` command: the built-in recognizer catalog, run by the TouchTraceCLI library.
// A package that adds recognizers of its own builds the same tool with its catalog:
// `TouchTraceTool.main(catalog: try RecognizerCatalog.builtIn.adding(MyPress.self))`.
import TouchTraceCLI

TouchTraceTool.main()
