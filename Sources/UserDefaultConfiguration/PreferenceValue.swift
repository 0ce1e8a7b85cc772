#if Configuration
  import Configuration
  import Foundation
  import PropertyListCodec

  /// A stored property-list value, copied out of the suite into a `Sendable` form, so a
  /// snapshot or a watch can carry it across tasks. Made by the library's one classifier
  /// (`PropertyListKind`), so a number is read as the store holds it: a Boolean is not an
  /// integer, whichever reader made it.
  @available(Configuration 1.0, *)
  enum PreferenceValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case data([UInt8])
    case array([PreferenceValue])
    case dictionary([String: PreferenceValue])
    /// What no `ConfigType` holds (a date, a null or UID from a binary file, an integer
    /// beyond `Int`), named for the error message.
    case unsupported(String)

    /// Cost: one walk of `object` (a copy of every string, byte and element).
    init(_ object: Any) {
      switch PropertyListKind(of: object) {
      case .bool: self = (object as? Bool).map(Self.bool) ?? .unsupported("a Boolean")
      case .integer:
        self = Self.integer(object).map(Self.integer) ?? .unsupported("a large integer")
      case .real: self = Self.real(object).map(Self.real) ?? .unsupported("a real number")
      case .string: self = (object as? String).map(Self.string) ?? .unsupported("a string")
      case .data: self = (object as? Data).map { .data([UInt8]($0)) } ?? .unsupported("data")
      case .date: self = .unsupported("a date")
      case .array: self = .array(PropertyListObject.array(object)?.map(PreferenceValue.init) ?? [])
      case .dictionary:
        self = .dictionary(
          PropertyListObject.dictionary(object)?.mapValues(PreferenceValue.init) ?? [:])
      case .opaque: self = .unsupported("a null or UID")
      case .other: self = .unsupported("a \(type(of: object))")
      }
    }

    private static func integer(_ object: Any) -> Int? {
      switch object {
      case let value as Int: value
      case let value as Int64: Int(exactly: value)
      case let value as UInt64: Int(exactly: value)
      case let value as UInt: Int(exactly: value)
      case let value as Int32: Int(value)
      case let value as UInt32: Int(value)
      case let value as Int16: Int(value)
      case let value as UInt16: Int(value)
      case let value as Int8: Int(value)
      case let value as UInt8: Int(value)
      case let value as NSNumber: Int(exactly: value.int64Value)
      default: nil
      }
    }

    private static func real(_ object: Any) -> Double? {
      switch object {
      case let value as Double: value
      case let value as Float: Double(value)
      case let value as NSNumber: value.doubleValue
      default: nil
      }
    }

    /// What the value is, for an error message; never the value itself, which may be a
    /// secret.
    var kind: String {
      switch self {
      case .string: "a string"
      case .integer: "an integer"
      case .real: "a real number"
      case .bool: "a Boolean"
      case .data: "data"
      case .array: "an array"
      case .dictionary: "a dictionary"
      case .unsupported(let kind): kind
      }
    }
  }

  // MARK: Conversion

  @available(Configuration 1.0, *)
  extension PreferenceValue {
    /// The value as `type`: property-list values map to their content (an integer or a
    /// Boolean reads as a real, a whole real or a Boolean as an integer, a number as a
    /// Boolean, as `PropertyListSnapshot` reads them); text that reads as the requested
    /// type is accepted, as `EnvironmentVariablesProvider` reads it (`8080`, `0.5`,
    /// `yes`/`no`/`true`/`false`/`1`/`0`, base64 for bytes, a comma-separated list for an
    /// array, each element trimmed), and so are arrays whose elements convert one by one.
    ///
    /// - Throws: ``UserDefaultsProvider/ConversionError`` for anything else.
    func content(as type: ConfigType, name: String) throws(UserDefaultsProvider.ConversionError)
      -> ConfigContent
    {
      func convert<T>(_ element: (PreferenceValue) -> T?) throws(UserDefaultsProvider
        .ConversionError) -> [T]
      {
        let elements: [PreferenceValue]
        switch self {
        case .array(let array): elements = array
        case .string(let text): elements = Self.listItems(text).map(PreferenceValue.string)
        default: throw mismatch(type, name)
        }
        var converted: [T] = []
        converted.reserveCapacity(elements.count)
        for item in elements {
          guard let value = element(item) else { throw mismatch(type, name) }
          converted.append(value)
        }
        return converted
      }
      func scalar<T>(_ value: T?) throws(UserDefaultsProvider.ConversionError) -> T {
        guard let value else { throw mismatch(type, name) }
        return value
      }
      switch type {
      case .string: return .string(try scalar(stringValue))
      case .int: return .int(try scalar(intValue))
      case .double: return .double(try scalar(doubleValue))
      case .bool: return .bool(try scalar(boolValue))
      case .bytes: return .bytes(try scalar(bytesValue))
      case .stringArray: return .stringArray(try convert(\.stringValue))
      case .intArray: return .intArray(try convert(\.intValue))
      case .doubleArray: return .doubleArray(try convert(\.doubleValue))
      case .boolArray: return .boolArray(try convert(\.boolValue))
      case .byteChunkArray: return .byteChunkArray(try convert(\.bytesValue))
      }
    }

    private func mismatch(_ type: ConfigType, _ name: String)
      -> UserDefaultsProvider.ConversionError
    {
      UserDefaultsProvider.ConversionError(name: name, type: type, storedKind: kind)
    }

    /// A string, as stored; a number is not text (`PropertyListSnapshot` refuses it too).
    var stringValue: String? {
      if case .string(let text) = self { return text }
      return nil
    }

    var intValue: Int? {
      switch self {
      case .integer(let value): value
      case .real(let value): Int(exactly: value)
      case .bool(let value): value ? 1 : 0
      case .string(let text): Int(text)
      default: nil
      }
    }

    var doubleValue: Double? {
      switch self {
      case .real(let value): value
      case .integer(let value): Double(exactly: value)
      case .bool(let value): value ? 1 : 0
      case .string(let text): Double(text)
      default: nil
      }
    }

    var boolValue: Bool? {
      switch self {
      case .bool(let value): value
      case .integer(let value): value != 0
      case .real(let value): value != 0
      case .string(let text):
        switch text.lowercased() {
        case "yes", "1", "true": true
        case "no", "0", "false": false
        default: nil
        }
      default: nil
      }
    }

    var bytesValue: [UInt8]? {
      switch self {
      case .data(let bytes): bytes
      case .string(let text): Data(base64Encoded: text).map { [UInt8]($0) }
      default: nil
      }
    }

    /// `EnvironmentVariablesProvider`'s list: split at commas, empty items kept, trimmed.
    static func listItems(_ text: String) -> [String] {
      text.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
    }
  }
#endif
