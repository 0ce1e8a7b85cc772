import Foundation
import PropertyListCodec

/// The one place that turns a file's values into bytes, for every writer of a
/// preferences file and for `defaults export`: in the format asked for when it holds
/// every value exactly, else as binary, which holds them all.
///
/// XML cannot hold a control character (but tab and line ends), a fraction of a second,
/// a null or a UID. Rather than write invalid XML or change a value, such a document is
/// written as binary, and ``Written/keysXMLCannotHold`` names the keys for the report.
package enum PropertyListFileWriter {
  package struct Written {
    package let data: Data
    package let format: PreferencesFileFormat
    /// When XML was asked for and binary written: the top-level keys XML cannot hold.
    package let keysXMLCannotHold: [String]
    let askedForXML: Bool

    /// Why the document is binary though XML was asked for, for every report of it.
    package var whyNotXML: String? {
      guard askedForXML && format == .binary else { return nil }
      guard !keysXMLCannotHold.isEmpty else {
        return "a value is of a type only Foundation's binary writer knows"
      }
      let named = keysXMLCannotHold.prefix(5).map(\.debugDescription).joined(separator: ", ")
      let more = keysXMLCannotHold.count > 5 ? " and \(keysXMLCannotHold.count - 5) more" : ""
      return "XML cannot hold the value of \(named)\(more) exactly (a control character, a "
        + "date's fraction of a second, a null or a UID)"
    }
  }

  /// The document for `values`, in `format` when it holds every value exactly.
  ///
  /// - Parameters:
  ///   - values: The file's values.
  ///   - format: The format wanted: the file's own, or the caller's choice.
  /// - Returns: The bytes and their format; `nil` when no writer can write the values.
  ///   Cost: one pass of a writer; when XML is refused (once: the file stays binary), a
  ///   binary pass and an XML pass per top-level key.
  static func data(for values: [String: StoredObject], format: PreferencesFileFormat)
    -> Written?
  {
    if format == .xml, let data = PropertyListXMLWriter.data(for: values) {
      return Written(data: data, format: .xml, keysXMLCannotHold: [], askedForXML: true)
    }
    if let data = PropertyListBinaryWriter.data(for: values) {
      let refused =
        format == .xml
        ? values.filter { PropertyListXMLWriter.data(for: [$0.key: $0.value]) == nil }.keys.sorted()
        : []
      return Written(
        data: data, format: .binary, keysXMLCannotHold: refused, askedForXML: format == .xml)
    }
    // Objects neither writer knows (a foreign `NSObject` subclass Foundation accepts):
    // Foundation's binary writer, since its XML writer puts control characters in raw.
    let data = try? PropertyListSerialization.data(
      fromPropertyList: values.objects, format: .binary, options: 0)
    return data.map {
      Written(data: $0, format: .binary, keysXMLCannotHold: [], askedForXML: format == .xml)
    }
  }

  /// The document for `values`, as the store's own values are written.
  ///
  /// - Parameters:
  ///   - values: Property-list objects, as `defaults export` has them.
  ///   - format: The format wanted.
  /// - Returns: The bytes and their format, or `nil` when no writer can write the values.
  ///   Cost: a pass to sort the objects, then the other `data(for:format:)`.
  ///
  ///     let document = PropertyListFileWriter.data(for: ["volume": 7], format: .xml)
  package static func data(for values: [String: Any], format: PreferencesFileFormat)
    -> Written?
  {
    data(for: values.mapValues(StoredObject.init), format: format)
  }
}
