import Foundation

/// Collections whose elements have a property-list coding are stored element by element
/// (an array of raw values, say), so plain `UserDefaults` calls can read them; other
/// collections of `Codable` elements fall through to one JSON string.
protocol CollectionBridging {
  static func collectionCoding(json: JSONCoding) -> Any?
}

extension ValueCoding {
  /// Encodes one element; a `nil` element cannot live in a property list and is refused.
  fileprivate func encodeElement(_ element: Value) throws(DefaultsError) -> Any {
    guard let object = try encode(element) else {
      throw DefaultsError(.refusedValue, "nil cannot be stored inside a property list")
    }
    return object
  }
}

private func propertyListCoding<Element>(for _: Element.Type, json: JSONCoding) -> (
  any ValueCoding<Element>
)? {
  let element = ValueBridge<Element>.resolve(json: json)
  return element.storage == .propertyList ? element.coding : nil
}

extension Array: CollectionBridging {
  static func collectionCoding(json: JSONCoding) -> Any? {
    propertyListCoding(for: Element.self, json: json).map { ArrayCoding(element: $0) }
  }
}

extension Set: CollectionBridging {
  static func collectionCoding(json: JSONCoding) -> Any? {
    propertyListCoding(for: Element.self, json: json).map {
      SetCoding(array: ArrayCoding(element: $0))
    }
  }
}

extension Dictionary: CollectionBridging {
  static func collectionCoding(json: JSONCoding) -> Any? {
    guard Key.self == String.self else { return nil }
    return propertyListCoding(for: Value.self, json: json).map {
      DictionaryCoding<Value>(element: $0)
    }
  }
}

struct ArrayCoding<Element>: ValueCoding {
  let element: any ValueCoding<Element>
  var storage: StorageForm { .propertyList }

  func encode(_ array: [Element]) throws(DefaultsError) -> Any? {
    try CollectionElements.map(array, element.encodeElement)
  }

  func decode(_ object: Any) throws(DefaultsError) -> [Element] {
    guard let objects = PropertyListObject.array(object) else {
      throw .wrongType([Element].self, found: object)
    }
    return try CollectionElements.map(objects, element.decode)
  }
}

/// Stored as an array; reading an array with duplicates keeps one of each.
struct SetCoding<Element: Hashable>: ValueCoding {
  let array: ArrayCoding<Element>
  var storage: StorageForm { .propertyList }
  func encode(_ set: Set<Element>) throws(DefaultsError) -> Any? { try array.encode(Array(set)) }
  func decode(_ object: Any) throws(DefaultsError) -> Set<Element> {
    Set(try array.decode(object))
  }
}

/// The dictionary is known to have `String` keys (checked when the coding is chosen), so
/// the coding works on `[String: Value]` and converts at the edges.
struct DictionaryCoding<Value>: ValueCoding {
  let element: any ValueCoding<Value>
  var storage: StorageForm { .propertyList }

  func encode(_ dictionary: [String: Value]) throws(DefaultsError) -> Any? {
    try CollectionElements.mapValues(dictionary, element.encodeElement)
  }

  func decode(_ object: Any) throws(DefaultsError) -> [String: Value] {
    guard let objects = PropertyListObject.dictionary(object) else {
      throw .wrongType([String: Value].self, found: object)
    }
    return try CollectionElements.mapValues(objects, element.decode)
  }
}
