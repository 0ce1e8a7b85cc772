import Foundation

/// The JSON encoder and decoder pair that stores `Codable` values as strings.
///
/// One shared pair is made once (allocating a coder per read is a measurable cost);
/// `@UserDefault(..., encoder:decoder:)` makes its own. Non-finite floating-point values
/// are written as the strings `"inf"`, `"-inf"` and `"nan"` so that no finite struct
/// fails to encode; keys are sorted so equal values store equal text. With the library's
/// encoder, ``SortedJSONEncoder`` writes that same text for most values, for less (the
/// Performance article has the figures).
struct JSONCoding: Sendable {
  let encoder: JSONEncoder
  let decoder: JSONDecoder
  /// Whether `encoder` is the library's, whose text ``SortedJSONEncoder`` writes too.
  private let encodesSorted: Bool

  /// A coder left out gets the library's settings.
  init(encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil) {
    self.encoder = encoder ?? Self.makeEncoder()
    self.decoder = decoder ?? Self.makeDecoder()
    encodesSorted = encoder == nil
  }

  static let shared = JSONCoding()

  static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return encoder
  }

  private static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }

  func encodeToString<T: Encodable>(_ value: T) throws(DefaultsError) -> String {
    if encodesSorted, let text = SortedJSONEncoder.text(of: value) { return text }
    do {
      return String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
      throw DefaultsError(.refusedValue, "\(T.self) could not be encoded as JSON: \(error)")
    }
  }

  func decode<T: Decodable>(_ type: T.Type, fromString text: String) throws(DefaultsError) -> T {
    try decode(type, from: Data(text.utf8))
  }

  func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(DefaultsError) -> T {
    do {
      return try decoder.decode(type, from: data)
    } catch {
      throw DefaultsError(.undecodableValue, "stored JSON is not a valid \(T.self): \(error)")
    }
  }
}
