/// The format of a preferences file: binary, as macOS keeps preferences, or XML.
///
/// A file keeps the format it came in, on every writer (the store, the default path's
/// saver, migrations, the `defaults` tool): a binary file is rewritten as binary and an
/// XML file as XML. A file the library makes is binary unless the store was opened with
/// `format: .xml` (see ``PreferencesStore/init(suiteName:directory:flushWindow:format:)``).
/// Binary keeps everything exactly (a date's fraction of a second, -0.0, any control
/// character in a string); XML keeps dates to the second, and is what a person edits by
/// hand. Both are read by the library's own readers, and by Foundation.
public enum PreferencesFileFormat: Sendable, Equatable {
  /// A binary property list (`bplist00`).
  case binary
  /// An XML property list.
  case xml

  /// The format of a file the library makes when nobody chose one.
  static let newFile = PreferencesFileFormat.binary
}
