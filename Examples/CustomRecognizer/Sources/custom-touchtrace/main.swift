// `custom-touchtrace`: the whole `touchtrace` command with ExampleFirstCrossing in the catalog.
import ExampleRecognizers
import TouchRecognizers
import TouchTraceCLI

TouchTraceTool.main(catalog: try RecognizerCatalog.builtIn.adding(ExampleFirstCrossing.self))
