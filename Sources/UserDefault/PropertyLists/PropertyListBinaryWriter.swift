import Foundation

/// Writes a dictionary of property-list objects as a binary property list (`bplist00`),
/// the format macOS keeps preferences in, beside ``PropertyListXMLWriter``.
///
/// What XML cannot hold, this keeps: a date with its fraction of a second, a real by its
/// bit pattern (-0.0, infinities, NaN), any string (control characters included, as
/// UTF-16 when it is not ASCII), and integers up to `UInt64.max` (16 bytes when above
/// `Int64.max`, as Apple's writer does). Objects are told apart as the XML writer tells
/// them: the store's native scalars by their case, anything else by its type, an
/// `NSNumber` by its stored C type. Anything it cannot write (an unknown object type)
/// makes it return `nil`. Keys are written sorted, so equal dictionaries give equal
/// bytes; nothing is shared between equal objects (a reader needs no such sharing).
///
/// Cost: linear in the size of the values, plus sorting each dictionary's keys; one
/// buffer for the objects, one for the offset table (see the benchmark's writer rows).
package struct PropertyListBinaryWriter {
  /// The objects in the order they are numbered: an object's number is its place here.
  private var objects: [Object] = []

  private enum Object {
    /// A scalar, encoded already: it refers to no other object.
    case encoded([UInt8])
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
  }

  /// The binary form of `values`, or `nil` for a value this writer cannot write.
  ///
  /// - Parameter values: Property-list objects.
  /// - Returns: The document's bytes.
  ///
  ///     let data = PropertyListBinaryWriter.data(for: ["volume": 7])
  package static func data(for values: [String: Any]) -> Data? {
    data(for: values.mapValues(StoredObject.init))
  }

  /// The binary form of `values` as the store holds them.
  ///
  /// - Parameter values: The store's objects.
  /// - Returns: The document's bytes, or `nil` for a value this writer cannot write.
  static func data(for values: [String: StoredObject]) -> Data? {
    var writer = PropertyListBinaryWriter()
    writer.objects.reserveCapacity(1 + values.count * 2)
    guard writer.add(dictionary: values, element: { $0.add(stored: $1) }) != nil else {
      return nil
    }
    return writer.document()
  }

  // MARK: Numbering the objects

  /// Adds `dictionary` and its contents; returns its number.
  private mutating func add<Element>(
    dictionary: [String: Element], element: (inout Self, Element) -> Int?
  ) -> Int? {
    let number = objects.count
    objects.append(.dictionary(keys: [], values: []))
    var keys: [Int] = []
    var values: [Int] = []
    keys.reserveCapacity(dictionary.count)
    values.reserveCapacity(dictionary.count)
    for key in dictionary.keys.sorted() {
      keys.append(add(string: key))
      guard let value = element(&self, dictionary[key]!) else { return nil }
      values.append(value)
    }
    objects[number] = .dictionary(keys: keys, values: values)
    return number
  }

  private mutating func add(encoded bytes: [UInt8]) -> Int {
    objects.append(.encoded(bytes))
    return objects.count - 1
  }

  private mutating func add(stored value: StoredObject) -> Int? {
    switch value {
    case .int(let integer): add(encoded: Self.integer(Int64(integer)))
    case .double(let real): add(encoded: Self.real(real))
    case .bool(let bool): add(encoded: [bool ? 0x09 : 0x08])
    case .string(let string): add(string: string)
    case .other(let object): add(other: object)
    }
  }

  private mutating func add(_ value: Any) -> Int? {
    add(stored: StoredObject(value))
  }

  private mutating func add(string: String) -> Int {
    add(encoded: Self.string(string))
  }

  /// Adds an object that is not one of the store's native scalars.
  private mutating func add(other value: Any) -> Int? {
    switch value {
    case let string as String:  // an NSString
      return add(string: string)
    case let number as NSNumber:
      return add(encoded: Self.number(number))
    case let data as Data:
      return add(encoded: Self.header(0x40, count: data.count) + Array(data))
    case let date as Date:
      return add(encoded: [0x33] + Self.bigEndian(date.timeIntervalSinceReferenceDate.bitPattern))
    case let array as [Any]:
      let number = objects.count
      objects.append(.array([]))
      var elements: [Int] = []
      elements.reserveCapacity(array.count)
      for element in array {
        guard let added = add(element) else { return nil }
        elements.append(added)
      }
      objects[number] = .array(elements)
      return number
    case let dictionary as [String: Any]:
      return add(dictionary: dictionary, element: { $0.add($1) })
    case let opaque as PropertyListOpaque:
      switch opaque.value {
      case .null: return add(encoded: [0x00])
      case .uid(let number):
        // A UID's marker counts its bytes less one: 1, 2, 4 or 8 of them.
        let bytes = Self.unsigned(number).dropFirst()
        return add(encoded: [0x80 | UInt8(bytes.count - 1)] + bytes)
      }
    default:
      return nil
    }
  }

  // MARK: Encoding scalars

  /// Booleans, integers (signed and unsigned 64-bit) and reals, told apart the way
  /// Foundation does: by the number's stored type, not its value.
  private static func number(_ number: NSNumber) -> [UInt8] {
    switch UInt8(bitPattern: number.objCType.pointee) {
    case UInt8(ascii: "c"): [number.boolValue ? 0x09 : 0x08]
    case UInt8(ascii: "d"), UInt8(ascii: "f"): real(number.doubleValue)
    case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"): unsigned(number.uint64Value)
    default: integer(number.int64Value)
    }
  }

  /// The smallest of 1, 2, 4 or 8 bytes for a value that is not negative; 8 for one that
  /// is (two's complement, as every reader expects).
  private static func integer(_ value: Int64) -> [UInt8] {
    guard value >= 0 else { return [0x13] + bigEndian(UInt64(bitPattern: value)) }
    return unsigned(UInt64(value))
  }

  private static func unsigned(_ value: UInt64) -> [UInt8] {
    switch value {
    case 0...0xFF: [0x10, UInt8(value)]
    case 0...0xFFFF: [0x11] + bigEndian(UInt16(value))
    case 0...0xFFFF_FFFF: [0x12] + bigEndian(UInt32(value))
    case 0...UInt64(Int64.max): [0x13] + bigEndian(value)
    // Above Int64.max: 16 bytes, the high half zero, so that readers, which take 8 bytes
    // as signed, read the value and not a negative one.
    default: [0x14] + [UInt8](repeating: 0, count: 8) + bigEndian(value)
    }
  }

  /// Eight bytes, the double's bit pattern: -0.0, infinities and NaN stay as they are.
  private static func real(_ value: Double) -> [UInt8] {
    [0x23] + bigEndian(value.bitPattern)
  }

  /// ASCII in one byte a character; anything else in UTF-16, big-endian.
  private static func string(_ string: String) -> [UInt8] {
    let utf8 = string.utf8
    if utf8.allSatisfy({ $0 < 0x80 }) { return header(0x50, count: utf8.count) + Array(utf8) }
    let units = Array(string.utf16)
    var bytes = header(0x60, count: units.count)
    bytes.reserveCapacity(bytes.count + units.count * 2)
    for unit in units { bytes += bigEndian(unit) }
    return bytes
  }

  /// An object's marker with its count: in the marker's low bits up to 14, else 15 and
  /// the count as an integer object after it.
  private static func header(_ marker: UInt8, count: Int) -> [UInt8] {
    count < 15 ? [marker | UInt8(count)] : [marker | 0x0F] + unsigned(UInt64(count))
  }

  private static func bigEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
  }

  /// How many bytes (1, 2, 4 or 8) hold `value`.
  private static func width(_ value: Int) -> Int {
    switch value {
    case 0...0xFF: 1
    case 0...0xFFFF: 2
    case 0...0xFFFF_FFFF: 4
    default: 8
    }
  }

  /// `value` in `width` bytes, big-endian.
  private static func append(_ value: Int, width: Int, to bytes: inout [UInt8]) {
    for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> shift))
    }
  }

  // MARK: The document

  /// Header, objects (the root first), offset table and trailer.
  private func document() -> Data {
    let referenceWidth = Self.width(objects.count - 1)
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    offsets.reserveCapacity(objects.count)
    for object in objects {
      offsets.append(bytes.count)
      switch object {
      case .encoded(let encoded):
        bytes += encoded
      case .array(let elements):
        bytes += Self.header(0xA0, count: elements.count)
        for element in elements { Self.append(element, width: referenceWidth, to: &bytes) }
      case .dictionary(let keys, let values):
        bytes += Self.header(0xD0, count: keys.count)
        for key in keys { Self.append(key, width: referenceWidth, to: &bytes) }
        for value in values { Self.append(value, width: referenceWidth, to: &bytes) }
      }
    }
    let tableOffset = bytes.count
    let offsetWidth = Self.width(tableOffset)
    for offset in offsets { Self.append(offset, width: offsetWidth, to: &bytes) }
    // Trailer: five unused bytes, the sort version, the two widths, then the object
    // count, the root's number and the table's offset, eight bytes each.
    bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetWidth), UInt8(referenceWidth)]
    Self.append(objects.count, width: 8, to: &bytes)
    Self.append(0, width: 8, to: &bytes)
    Self.append(tableOffset, width: 8, to: &bytes)
    return Data(bytes)
  }
}
