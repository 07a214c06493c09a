import ArgumentParser

/// Where a page server listens and the token it asks for (`capture`, `try`).
struct ServerOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Address to bind; anything but loopback needs a token (--token-file or TOUCHTRACE_CAPTURE_TOKEN).",
      valueName: "address"))
  var host = "127.0.0.1"

  @Option(help: ArgumentHelp("TCP port; 0 binds any free port (the printed URL names it).", valueName: "port"))
  var port: UInt16 = 8080

  @Option(
    help: ArgumentHelp(
      "Read the access token every request must carry from this file (required with a non-loopback --host unless TOUCHTRACE_CAPTURE_TOKEN is set; A-Z a-z 0-9 - . _ ~; one trailing line break ignored).",
      valueName: "file"))
  var tokenFile: String?
}
