import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a dictionary of property-list objects as a binary property list (`bplist00`),
/// the format macOS keeps preferences in, beside ``PropertyListXMLWriter``.
///
/// What XML cannot hold, this keeps: a date's fraction of a second, a real's bit pattern,
/// any string, integers up to `UInt64.max` (16 bytes above `Int64.max`, as Apple's
/// writer). Objects are told apart as the XML writer tells them; an unknown type returns
/// `nil`. Keys are sorted by their UTF-8 bytes, so equal dictionaries give equal bytes.
///
/// Cost: linear in the size of the values, plus sorting each dictionary's keys. Scalars
/// go straight into one buffer; containers, which need the width of a reference, after.
package struct PropertyListBinaryWriter {
  private var bytes: Output
  /// By object number; a container's is set when it is written.
  private var offsets: [Int] = []
  /// Written last: only then is the width of a reference known.
  private var containers: [Container] = []

  private struct Container {
    let number: Int
    /// 0xA0 for an array, 0xD0 for a dictionary.
    let marker: UInt8
    /// For a dictionary, its keys' numbers then its values'.
    let references: [Int]
  }

  /// The binary form of `values`, or `nil` for a value this writer cannot write.
  ///
  /// - Parameter values: Property-list objects.
  /// - Returns: The document's bytes.
  ///
  ///     let data = PropertyListBinaryWriter.data(for: ["volume": 7])
  package static func data(for values: [String: Any]) -> Data? {
    data(for: values, element: { $0.add($1) })
  }

  /// The binary form of `values` as the store holds them.
  ///
  /// - Parameter values: The store's objects.
  /// - Returns: The document's bytes, or `nil` for a value this writer cannot write.
  package static func data(for values: [String: StoredObject]) -> Data? {
    data(for: values, element: { $0.add(stored: $1) })
  }

  private static func data<Element>(
    for values: [String: Element], element: (inout Self, Element) -> Int?
  ) -> Data? {
    // About what a short key and a scalar take, with their references and offsets.
    var writer = PropertyListBinaryWriter(bytes: Output(capacity: 64 + values.count * 40))
    for byte in "bplist00".utf8 { writer.bytes.append(byte) }
    writer.offsets.reserveCapacity(1 + values.count * 2)
    guard writer.add(dictionary: values, element: element) != nil else {
      writer.bytes.deallocate()
      return nil
    }
    return writer.document()
  }

  // MARK: Numbering the objects

  private mutating func beginScalar() -> Int {
    offsets.append(bytes.count)
    return offsets.count - 1
  }

  /// Adds `dictionary` and its contents; returns its number. Keys are sorted by their
  /// UTF-8 bytes, not `String`'s `<`: the same order for ASCII and NFC, deterministic for
  /// the rest, and several times cheaper; most comparisons are of one eight-byte prefix.
  private mutating func add<Element>(
    dictionary: [String: Element], element: (inout Self, Element) -> Int?
  ) -> Int? {
    let number = offsets.count
    offsets.append(0)
    let count = dictionary.count
    var values: [Element] = []
    values.reserveCapacity(count)
    var keyBytes: [UInt8] = []
    keyBytes.reserveCapacity(count * 16)
    var order: [SortKey] = []
    order.reserveCapacity(count)
    for (key, value) in dictionary {
      var key = key
      key.withUTF8 { utf8 in
        order.append(SortKey(utf8, start: keyBytes.count, index: values.count))
        keyBytes.append(contentsOf: utf8)
      }
      values.append(value)
    }
    keyBytes.withUnsafeBufferPointer { keyBytes in
      order.sort { $0.precedes($1, in: keyBytes) }
    }
    var references = [Int](repeating: 0, count: count * 2)
    for (position, key) in order.enumerated() {
      references[position] = offsets.count
      offsets.append(bytes.count)
      keyBytes.withUnsafeBufferPointer { keyBytes in
        append(
          utf8: UnsafeBufferPointer(rebasing: keyBytes[key.start..<(key.start + key.count)]))
      }
      guard let value = element(&self, values[key.index]) else { return nil }
      references[count + position] = value
    }
    containers.append(Container(number: number, marker: 0xD0, references: references))
    return number
  }

  private struct SortKey {
    /// The first eight bytes, big-endian, zero after a shorter key's end.
    let prefix: UInt64
    let start: Int
    let count: Int
    let index: Int

    init(_ utf8: UnsafeBufferPointer<UInt8>, start: Int, index: Int) {
      var prefix: UInt64 = 0
      for offset in 0..<8 {
        prefix = prefix << 8 | UInt64(offset < utf8.count ? utf8[offset] : 0)
      }
      (self.prefix, self.start, self.count, self.index) = (prefix, start, utf8.count, index)
    }

    /// Whether this key's bytes come before `other`'s: a shorter key before a longer one
    /// it begins.
    func precedes(_ other: SortKey, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      if prefix != other.prefix { return prefix < other.prefix }
      let common = min(count, other.count)
      if common > 8 {
        let order = memcmp(
          bytes.baseAddress! + start + 8, bytes.baseAddress! + other.start + 8, common - 8)
        if order != 0 { return order < 0 }
      }
      return count < other.count
    }
  }

  private mutating func add(stored value: StoredObject) -> Int? {
    switch value {
    case .int(let integer):
      let number = beginScalar()
      append(integer: Int64(integer))
      return number
    case .double(let real):
      let number = beginScalar()
      append(marker: 0x23, bigEndian: real.bitPattern)
      return number
    case .bool(let bool):
      let number = beginScalar()
      bytes.append(bool ? 0x09 : 0x08)
      return number
    case .string(let string):
      return add(string: string)
    case .other(let object):
      return add(other: object)
    }
  }

  private mutating func add(_ value: Any) -> Int? {
    add(stored: StoredObject(value))
  }

  private mutating func add(string: String) -> Int {
    let number = beginScalar()
    append(string: string)
    return number
  }

  private mutating func add(other value: Any) -> Int? {
    // The common types by a comparison of types, before the runtime's casts.
    if let date = ExactTypeCast.exactly(value, as: Date.self) { return add(date: date) }
    if let data = ExactTypeCast.exactly(value, as: Data.self) { return add(data: data) }
    switch value {
    case let string as String:  // an NSString
      return add(string: string)
    case let number as NSNumber:
      let added = beginScalar()
      append(number: number)
      return added
    case let data as Data:
      return add(data: data)
    case let date as Date:
      return add(date: date)
    case let array as [Any]:
      let number = offsets.count
      offsets.append(0)
      var elements: [Int] = []
      elements.reserveCapacity(array.count)
      for element in array {
        guard let added = add(element) else { return nil }
        elements.append(added)
      }
      containers.append(Container(number: number, marker: 0xA0, references: elements))
      return number
    case let dictionary as [String: Any]:
      return add(dictionary: dictionary, element: { $0.add($1) })
    case let opaque as PropertyListOpaque:
      let number = beginScalar()
      switch opaque.value {
      case .null: bytes.append(0x00)
      // A UID's marker counts its bytes less one: 1, 2 or 4, as the reader takes none
      // above `UInt32.max`.
      case .uid(let value): append(unsigned: value, markerBase: 0x80, countsBytes: true)
      }
      return number
    default:
      return nil
    }
  }

  private mutating func add(date: Date) -> Int {
    let number = beginScalar()
    append(marker: 0x33, bigEndian: date.timeIntervalSinceReferenceDate.bitPattern)
    return number
  }

  private mutating func add(data: Data) -> Int {
    let number = beginScalar()
    append(marker: 0x40, count: data.count)
    data.withUnsafeBytes { bytes.append(contentsOf: $0) }
    return number
  }

  // MARK: Encoding scalars

  /// Told apart as Foundation does: by the number's stored type, not its value.
  private mutating func append(number: NSNumber) {
    switch UInt8(bitPattern: number.objCType.pointee) {
    case UInt8(ascii: "c"): bytes.append(number.boolValue ? 0x09 : 0x08)
    case UInt8(ascii: "d"), UInt8(ascii: "f"):
      append(marker: 0x23, bigEndian: number.doubleValue.bitPattern)
    case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"):
      append(unsigned: number.uint64Value)
    default: append(integer: number.int64Value)
    }
  }

  /// The smallest of 1, 2, 4 or 8 bytes for a value that is not negative; 8 for one that
  /// is (two's complement, as every reader expects).
  private mutating func append(integer value: Int64) {
    guard value >= 0 else {
      append(marker: 0x13, bigEndian: UInt64(bitPattern: value))
      return
    }
    append(unsigned: UInt64(value))
  }

  /// An integer's marker (0x10) and bytes, or with `countsBytes` a UID's (0x80), whose
  /// low bits count the bytes less one rather than give their power of two.
  private mutating func append(
    unsigned value: UInt64, markerBase: UInt8 = 0x10, countsBytes: Bool = false
  ) {
    func marker(_ power: UInt8) -> UInt8 { markerBase | (countsBytes ? (1 << power) - 1 : power) }
    switch value {
    case 0...0xFF:
      bytes.append(marker(0))
      bytes.append(UInt8(value))
    case 0...0xFFFF: append(marker: marker(1), bigEndian: UInt16(value))
    case 0...0xFFFF_FFFF: append(marker: marker(2), bigEndian: UInt32(value))
    case 0...UInt64(Int64.max): append(marker: marker(3), bigEndian: value)
    // Above Int64.max: 16 bytes, the high half zero, so that readers, which take 8 bytes
    // as signed, read the value and not a negative one.
    default:
      bytes.append(marker(4))
      append(bigEndian: UInt64(0))
      append(bigEndian: value)
    }
  }

  /// ASCII in one byte a character, copied from the string's UTF-8; anything else in
  /// UTF-16, big-endian.
  private mutating func append(string: String) {
    var string = string
    string.withUTF8 { append(utf8: $0) }
  }

  private mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
    if Self.isASCII(utf8) {
      append(marker: 0x50, count: utf8.count)
      bytes.append(contentsOf: UnsafeRawBufferPointer(utf8))
      return
    }
    let units = String(decoding: utf8, as: UTF8.self).utf16
    append(marker: 0x60, count: units.count)
    bytes.reserve(units.count * 2)
    for unit in units { append(bigEndian: unit) }
  }

  private static func isASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    var union: UInt8 = 0
    for byte in utf8 { union |= byte }
    return union < 0x80
  }

  /// An object's marker with its count: in the marker's low bits up to 14, else 15 and
  /// the count as an integer object after it.
  private mutating func append(marker: UInt8, count: Int) {
    if count < 15 {
      bytes.append(marker | UInt8(count))
    } else {
      bytes.append(marker | 0x0F)
      append(unsigned: UInt64(count))
    }
  }

  private mutating func append<Integer: FixedWidthInteger>(marker: UInt8, bigEndian value: Integer)
  {
    bytes.append(marker)
    append(bigEndian: value)
  }

  private mutating func append<Integer: FixedWidthInteger>(bigEndian value: Integer) {
    bytes.append(bigEndian: value)
  }

  /// Compared as a `UInt64`: `0xFFFF_FFFF` is no `Int` where `Int` is 32 bits (arm64_32).
  private static func width(_ value: Int) -> Int {
    switch UInt64(truncatingIfNeeded: value) {
    case 0...0xFF: 1
    case 0...0xFFFF: 2
    case 0...0xFFFF_FFFF: 4
    default: 8
    }
  }

  /// `values` in `width` bytes each, big-endian; the width chosen once, not per value.
  private mutating func append(_ values: [Int], width: Int) {
    switch width {
    case 1: for value in values { bytes.append(UInt8(truncatingIfNeeded: value)) }
    case 2: for value in values { append(bigEndian: UInt16(truncatingIfNeeded: value)) }
    case 4: for value in values { append(bigEndian: UInt32(truncatingIfNeeded: value)) }
    default: for value in values { append(bigEndian: UInt64(truncatingIfNeeded: value)) }
    }
  }

  // MARK: The document

  private mutating func document() -> Data {
    let referenceWidth = Self.width(offsets.count - 1)
    for container in containers {
      offsets[container.number] = bytes.count
      append(
        marker: container.marker,
        count: container.references.count / (container.marker == 0xD0 ? 2 : 1))
      append(container.references, width: referenceWidth)
    }
    let tableOffset = bytes.count
    let offsetWidth = Self.width(tableOffset)
    append(offsets, width: offsetWidth)
    // Trailer: five unused bytes, the sort version, the two widths, then the object
    // count, the root's number and the table's offset, eight bytes each.
    append(bigEndian: UInt64(offsetWidth) << 8 | UInt64(referenceWidth))
    append(bigEndian: UInt64(offsets.count))
    append(bigEndian: UInt64(0))
    append(bigEndian: UInt64(tableOffset))
    return bytes.data()
  }

  /// One allocation that grows by doubling and becomes the `Data` without a copy: each
  /// write is a check and a store, where an array's `append(contentsOf:)` of a few bytes
  /// takes its slow generic path. Copies share it: the writer hands it on or frees it.
  private struct Output {
    private(set) var count = 0
    private var capacity: Int
    private var base: UnsafeMutableRawPointer

    init(capacity: Int) {
      self.capacity = Swift.max(capacity, 64)
      base = .allocate(byteCount: self.capacity, alignment: 1)
    }

    @inline(__always)
    mutating func reserve(_ extra: Int) {
      if capacity - count < extra { grow(extra) }
    }

    private mutating func grow(_ extra: Int) {
      let grown = Swift.max(capacity * 2, count + extra)
      let new = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 1)
      new.copyMemory(from: base, byteCount: count)
      base.deallocate()
      (base, capacity) = (new, grown)
    }

    mutating func append(_ byte: UInt8) {
      reserve(1)
      base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
      count += 1
    }

    mutating func append<Integer: FixedWidthInteger>(bigEndian value: Integer) {
      reserve(MemoryLayout<Integer>.size)
      base.storeBytes(of: value.bigEndian, toByteOffset: count, as: Integer.self)
      count += MemoryLayout<Integer>.size
    }

    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
      guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
      reserve(bytes.count)
      (base + count).copyMemory(from: source, byteCount: bytes.count)
      count += bytes.count
    }

    func data() -> Data {
      Data(
        bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() }
      )
    }

    func deallocate() { base.deallocate() }
  }
}
