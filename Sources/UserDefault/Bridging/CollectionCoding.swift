import Foundation
import PropertyListCodec

/// Collections are stored element by element, each as it is stored alone, so plain
/// `UserDefaults` calls can read them. An earlier version's single JSON string still reads.
protocol CollectionBridging {
  static func collectionCoding(json: JSONCoding) -> Any?
}

extension ValueCoding {
  /// A `nil` element cannot live in a property list and is refused.
  fileprivate func encodeElement(_ element: Value) throws(DefaultsError) -> Any {
    guard let object = try encode(element) else {
      throw DefaultsError(.refusedValue, "nil cannot be stored inside a property list")
    }
    return object
  }
}

private func elementCoding<Element>(for _: Element.Type, json: JSONCoding) -> (
  any ValueCoding<Element>
)? {
  let element = ValueBridge<Element>.resolve(json: json)
  return element.storage == .unsupported ? nil : element.coding
}

extension Array: CollectionBridging {
  static func collectionCoding(json: JSONCoding) -> Any? {
    elementCoding(for: Element.self, json: json).map {
      ArrayCoding(element: $0, earlierJSON: EarlierJSON<[Element]>(json: json, of: $0))
    }
  }
}

extension Set: CollectionBridging {
  static func collectionCoding(json: JSONCoding) -> Any? {
    elementCoding(for: Element.self, json: json).map {
      SetCoding(
        array: ArrayCoding(element: $0, earlierJSON: EarlierJSON<[Element]>(json: json, of: $0)))
    }
  }
}

extension Dictionary: CollectionBridging {
  static func collectionCoding(json: JSONCoding) -> Any? {
    guard Key.self == String.self else { return nil }
    return elementCoding(for: Value.self, json: json).map {
      DictionaryCoding<Value>(
        element: $0, earlierJSON: EarlierJSON<[String: Value]>(json: json, of: $0))
    }
  }
}

/// Reads the one JSON string an earlier version stored a `Codable` collection as; only for
/// collections that version stored so.
struct EarlierJSON<Collection>: Sendable {
  private let read: (@Sendable (String) throws(DefaultsError) -> Collection)?

  static var never: EarlierJSON { EarlierJSON(read: nil) }

  private init(read: (@Sendable (String) throws(DefaultsError) -> Collection)?) {
    self.read = read
  }

  init<Element>(json: JSONCoding, of element: any ValueCoding<Element>) {
    guard element.wasStoredAsJSON,
      let decodable = Collection.self as? any (Decodable & SendableMetatype).Type
    else {
      read = nil
      return
    }
    read = Self.reader(decodable, json: json)
  }

  /// `Decoded` is `Collection` itself, opened from the existential: the cast cannot fail.
  private static func reader<Decoded: Decodable & SendableMetatype>(
    _: Decoded.Type, json: JSONCoding
  )
    -> @Sendable (String) throws(DefaultsError) -> Collection
  {
    { text throws(DefaultsError) in
      unsafeBitCast(try json.decode(Decoded.self, fromString: text), to: Collection.self)
    }
  }

  /// `nil` when `object` is no text, or the type is not `Decodable`.
  func decode(_ object: Any) throws(DefaultsError) -> Collection? {
    guard let read, let text = object as? String else { return nil }
    return try read(text)
  }
}

struct ArrayCoding<Element>: ValueCoding {
  let element: any ValueCoding<Element>
  let earlierJSON: EarlierJSON<[Element]>
  var storage: StorageForm { .propertyList }
  var wasStoredAsJSON: Bool { element.wasStoredAsJSON }

  func encode(_ array: [Element]) throws(DefaultsError) -> Any? {
    try CollectionElements.map(array, element.encodeElement)
  }

  func decode(_ object: Any) throws(DefaultsError) -> [Element] {
    guard let objects = PropertyListObject.array(object) else {
      if let earlier = try earlierJSON.decode(object) { return earlier }
      throw .wrongType([Element].self, found: object)
    }
    return try CollectionElements.map(objects, element.decode)
  }
}

/// Stored as an array; reading an array with duplicates keeps one of each.
struct SetCoding<Element: Hashable>: ValueCoding {
  let array: ArrayCoding<Element>
  var storage: StorageForm { .propertyList }
  var wasStoredAsJSON: Bool { array.wasStoredAsJSON }
  func encode(_ set: Set<Element>) throws(DefaultsError) -> Any? { try array.encode(Array(set)) }
  func decode(_ object: Any) throws(DefaultsError) -> Set<Element> {
    Set(try array.decode(object))
  }
}

/// Its keys are `String`s (checked when chosen): works on `[String: Value]`.
struct DictionaryCoding<Value>: ValueCoding {
  let element: any ValueCoding<Value>
  let earlierJSON: EarlierJSON<[String: Value]>
  var storage: StorageForm { .propertyList }
  var wasStoredAsJSON: Bool { element.wasStoredAsJSON }

  func encode(_ dictionary: [String: Value]) throws(DefaultsError) -> Any? {
    try CollectionElements.mapValues(dictionary, element.encodeElement)
  }

  func decode(_ object: Any) throws(DefaultsError) -> [String: Value] {
    guard let objects = PropertyListObject.dictionary(object) else {
      if let earlier = try earlierJSON.decode(object) { return earlier }
      throw .wrongType([String: Value].self, found: object)
    }
    return try CollectionElements.mapValues(objects, element.decode)
  }
}
