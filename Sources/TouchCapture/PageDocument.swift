/// What the capture and try pages share: the document's opening up to its own style rules, and
/// its closing, which builds in the state JSON, the token and the secret before the page's script.
enum PageDocument {
  /// `<!DOCTYPE html>` to the opening `<style>`: UTF-8, a viewport for phones (no zoom, which
  /// would fight the pressure gestures), no favicon request, and `title`.
  static func opening(title: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1, user-scalable=no">
    <link rel="icon" href="data:,">
    <title>\(title)</title>
    <style>

    """
  }

  /// The scripts' `sample(event, type)`: what the server reads of a pointer event (its time
  /// stamp, milliseconds; pressure, 0–1; tilt, degrees; contact size and position in the area,
  /// CSS pixels), with `area` the page's touch area. Both pages send samples of this shape
  /// (``CaptureUpload``), so it is written once.
  static let sampleFunction = """
    function sample(event, type) {
      const box = area.getBoundingClientRect();
      return {
        type: type, timeStamp: event.timeStamp, pressure: event.pressure, touchForce: null,
        tiltX: event.tiltX || 0, tiltY: event.tiltY || 0, width: event.width || 0, height: event.height || 0,
        x: event.clientX - box.left, y: event.clientY - box.top, pointerType: event.pointerType || ""
      };
    }
    """

  /// The state JSON in `<script type="application/json" id="state">` (every `<` written as
  /// `\u003c`, so no `</script>` inside it can end the element early), then `script` after the
  /// constants `QUERY` (`?token=T`, or empty) and `SECRET`, and the document's end.
  ///
  /// - Precondition: `token` holds only URL-unreserved characters (``CaptureConfiguration``
  ///   checks it), `secret` only hexadecimal digits: neither is escaped.
  static func closing(state: [UInt8], token: String?, secret: String, script: String) -> String {
    var stateText: [UInt8] = []
    for byte in state {
      if byte == UInt8(ascii: "<") { stateText += Array(#"\u003c"#.utf8) } else { stateText.append(byte) }
    }
    let query = token.map { "?token=" + $0 } ?? ""
    return "<script type=\"application/json\" id=\"state\">" + String(decoding: stateText, as: UTF8.self)
      + "</script>\n<script>\nconst QUERY = \"" + query + "\";\nconst SECRET = \"" + secret + "\";\n" + script
      + "</script>\n</body>\n</html>\n"
  }
}
