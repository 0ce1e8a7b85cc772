import Foundation

/// Reads a binary property list (`bplist00`) whose root is a dictionary, as the store holds
/// its values: the twin of ``PropertyListXMLReader``, so a binary file is not left to
/// `PropertyListSerialization`, which bridges every value through Foundation.
///
/// It builds what the XML reader builds, `Date` to the bit, and a null or a UID as a
/// ``PropertyListOpaque`` the binary writer writes back. Anything it is not sure of
/// returns `nil`, for `PropertyListSerialization` to read or judge damaged: another
/// version, a set, a UTF-8 string object, a key named twice (readers disagree on which
/// wins), a 16-byte integer with a high half, a key that is not a string, an offset out of
/// bounds, nesting deeper than ``maximumDepth`` (which ends a reference cycle). It never
/// traps on input: every read is bounds-checked, every size checked before use.
///
/// Cost: linear in the number of objects, each read at most eight times (a file sharing
/// parts more than that is left to Foundation). No allocation but the values' own. Most of
/// ``storedObjects(in:)`` is making each key's `String` and inserting it, as in the XML
/// reader; a store's cold open takes ``index(in:)``, which does neither, and the
/// dictionary waits for the first write (``StoredValues``).
package enum PropertyListBinaryReader {
  /// Containers nested deeper than this are left to Foundation.
  static let maximumDepth = 512

  /// The root dictionary's values, or `nil` when the bytes are not a binary property list
  /// this reader is sure of.
  ///
  /// - Parameter bytes: The file's bytes.
  /// - Returns: The values as the store holds them.
  ///
  ///     let values = data.withUnsafeBytes(PropertyListBinaryReader.storedObjects)
  package static func storedObjects(in bytes: UnsafeRawBufferPointer) -> [String: StoredObject]? {
    var values: [String: StoredObject] = [:]
    let isRead = forEachRootEntry(in: bytes) { _, count in
      values.reserveCapacity(count)
      return true
    } visit: { document, keyNumber, value in
      guard let key = document.string(at: keyNumber) else { return false }
      // A `switch`, not `== nil`: comparing left a generic destroy of the empty optional.
      switch values.updateValue(consume value, forKey: consume key) {
      case .some: return false
      case .none: return true
      }
    }
    return isRead ? values : nil
  }

  /// The root dictionary as a ``PropertyListIndex`` when every key is an ASCII
  /// string; `nil` otherwise. Accepts nothing ``storedObjects(in:)`` refuses: the same
  /// code reads both. Cost: the values' reads, and a hash of each key's bytes; no `String`.
  ///
  /// - Parameter bytes: The file's bytes.
  /// - Returns: The root dictionary, indexed.
  ///
  ///     let index = data.withUnsafeBytes(PropertyListBinaryReader.index)
  package static func index(in bytes: UnsafeRawBufferPointer) -> PropertyListIndex? {
    var builder: PropertyListIndex.Builder?
    let isRead = forEachRootEntry(in: bytes) { keys, count in
      // Markers first: a file with a UTF-16 key costs this scan, not a whole read. A
      // false ASCII marker is caught by `asciiString(at:)`.
      for number in 0..<count where !keys.isASCIIStringObject(keyAt: number) { return false }
      builder = PropertyListIndex.Builder(over: bytes, expectedCount: count)
      return builder != nil
    } visit: { document, keyNumber, value in
      guard let key = document.asciiString(at: keyNumber) else { return false }
      return builder?.insert(keyAt: key.start, count: key.count, object: consume value) ?? false
    }
    guard isRead else { return nil }
    return builder?.index()
  }

  /// Hands `visit` each root entry's key number and value, after `reserve` (which may
  /// decline); `false` at the first value not understood or entry refused.
  @inline(__always)  // so `visit` inlines: no closure call, no copy through value witnesses
  private static func forEachRootEntry(
    in bytes: UnsafeRawBufferPointer, reserving reserve: (RootKeys, Int) -> Bool,
    visit: (borrowing Document, Int, consuming StoredObject) -> Bool
  ) -> Bool {
    guard let document = Document(bytes), let root = document.offset(of: document.root),
      bytes[root] & 0xF0 == 0xD0, let entries = document.container(at: root, pairs: true)
    else { return false }
    var budget = document.count.multipliedReportingOverflow(by: 8).partialValue
    guard reserve(RootKeys(document: document, entries: entries), entries.count) else {
      return false
    }
    for index in 0..<entries.count {
      guard
        let value = document.storedObject(
          at: document.reference(entries.count + index, of: entries), depth: 1, budget: &budget),
        visit(document, document.reference(index, of: entries), consume value)
      else { return false }
    }
    return true
  }

  private struct RootKeys {
    let document: Document
    let entries: (count: Int, start: Int)

    /// Whether key `index` is an object whose marker says ASCII string.
    func isASCIIStringObject(keyAt index: Int) -> Bool {
      guard let offset = document.offset(of: document.reference(index, of: entries)) else {
        return false
      }
      return document.bytes[offset] & 0xF0 == 0x50
    }
  }

  /// Whether any object in `bytes` is a set. No preferences file holds one, and
  /// Foundation's reader traps on a set of unhashable members (a flipped bit makes one),
  /// so such a file is damage, kept from it. `false` when `bytes` is unreadable.
  package static func holdsSet(in bytes: UnsafeRawBufferPointer) -> Bool {
    guard let document = Document(bytes) else { return false }
    for number in 0..<document.count {
      if let offset = document.offset(of: number), bytes[offset] & 0xF0 == 0xC0 { return true }
    }
    return false
  }

  /// The parts of a document its trailer names, checked against its size.
  private struct Document {
    let bytes: UnsafeRawBufferPointer
    let offsetWidth: Int
    let referenceWidth: Int
    let count: Int
    let root: Int
    let table: Int

    init?(_ bytes: UnsafeRawBufferPointer) {
      guard bytes.count >= 8 + 32, bytes.starts(with: "bplist00".utf8) else { return nil }
      self.bytes = bytes
      let trailer = bytes.count - 32
      offsetWidth = Int(bytes[trailer + 6])
      referenceWidth = Int(bytes[trailer + 7])
      guard (1...8).contains(offsetWidth), (1...8).contains(referenceWidth),
        let count = Self.unsigned(bytes, at: trailer + 8, width: 8),
        let root = Self.unsigned(bytes, at: trailer + 16, width: 8),
        let table = Self.unsigned(bytes, at: trailer + 24, width: 8),
        count > 0, count <= trailer, root < count, table >= 8, table <= trailer,
        count <= (trailer - table) / offsetWidth
      else { return nil }
      (self.count, self.root, self.table) = (count, root, table)
    }

    /// A big-endian unsigned number of `width` bytes at `offset`, if it is in bounds and
    /// fits an `Int`.
    static func unsigned(_ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int) -> Int? {
      bigEndian(bytes, at: offset, width: width, before: bytes.count).flatMap(Int.init(exactly:))
    }

    /// Eight big-endian bytes at `offset`, if they end by `end`.
    static func unsigned64(_ bytes: UnsafeRawBufferPointer, at offset: Int, before end: Int)
      -> UInt64?
    {
      bigEndian(bytes, at: offset, width: 8, before: end)
    }

    /// The one checked read of a big-endian number of at most 8 bytes, ending by `end`.
    private static func bigEndian(
      _ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int, before end: Int
    ) -> UInt64? {
      guard offset >= 0, width >= 0, width <= 8, end <= bytes.count, offset <= end - width
      else { return nil }
      return load(bytes, at: offset, width: width)
    }

    /// `width` (0 to 8) big-endian bytes the caller has bounds-checked: one load for the
    /// widths writers use, not a loop, as this runs once an object.
    @inline(__always)
    private static func load(_ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int)
      -> UInt64
    {
      switch width {
      case 1: return UInt64(bytes[offset])
      case 2:
        return UInt64(
          UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
      case 4:
        return UInt64(
          UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
      case 8: return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      default:
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        return value
      }
    }

    /// Where object `number` starts: after the header, before the offset table.
    func offset(of number: Int) -> Int? {
      // In bounds for every number below `count`: the trailer's check in `init`.
      guard number >= 0, number < count else { return nil }
      let offset = Self.load(bytes, at: table + number * offsetWidth, width: offsetWidth)
      guard offset >= 8, offset < UInt64(table), let start = Int(exactly: offset) else {
        return nil
      }
      return start
    }

    /// The count in an object's marker, or the integer after it, and where content starts.
    func sized(at offset: Int) -> (count: Int, start: Int)? {
      let low = Int(bytes[offset] & 0x0F)
      guard low == 0x0F else { return (low, offset + 1) }
      guard offset + 1 < table, bytes[offset + 1] & 0xF0 == 0x10 else { return nil }
      let width = 1 << Int(bytes[offset + 1] & 0x0F)
      guard width <= 8, width <= table - (offset + 2) else { return nil }
      guard let count = Int(exactly: Self.load(bytes, at: offset + 2, width: width)) else {
        return nil
      }
      return (count, offset + 2 + width)
    }

    /// A container's references: where they start and how many of each kind; `nil` unless
    /// all lie before the offset table.
    func container(at offset: Int, pairs: Bool) -> (count: Int, start: Int)? {
      guard let (count, start) = sized(at: offset), count <= Int.max / 2,
        (pairs ? count * 2 : count) <= (table - start) / referenceWidth
      else { return nil }
      return (count, start)
    }

    /// Reference `index` of a container that ``container(at:pairs:)`` has checked.
    @inline(__always)
    func reference(_ index: Int, of container: (count: Int, start: Int)) -> Int {
      let reference = Self.load(
        bytes, at: container.start + index * referenceWidth, width: referenceWidth)
      // Out of range refers to no object: `offset(of:)` declines a negative number.
      return Int(truncatingIfNeeded: min(reference, UInt64(Int.max)))
    }

    /// Where object `number`'s bytes lie when it is an ASCII string: the one check of one.
    func asciiString(at number: Int) -> (start: Int, count: Int)? {
      guard let offset = offset(of: number), bytes[offset] & 0xF0 == 0x50,
        let (count, start) = sized(at: offset), count <= table - start
      else { return nil }
      let isASCII = PropertyListIndex.isASCII(
        UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
      return isASCII ? (start, count) : nil
    }

    func string(at number: Int) -> String? {
      guard let offset = offset(of: number), let (count, start) = sized(at: offset) else {
        return nil
      }
      switch bytes[offset] & 0xF0 {
      case 0x50:
        return asciiString(at: number).map {
          String(
            decoding: UnsafeRawBufferPointer(rebasing: bytes[$0.start..<($0.start + $0.count)]),
            as: UTF8.self)
        }
      case 0x60:
        guard count <= (table - start) / 2 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(count)
        for index in 0..<count {
          units.append(
            UInt16(
              bigEndian: bytes.loadUnaligned(fromByteOffset: start + 2 * index, as: UInt16.self)))
        }
        // Lone surrogates are not a string Swift holds as it is: Foundation decides.
        var decoder = UTF16()
        var iterator = units.makeIterator()
        while true {
          switch decoder.decode(&iterator) {
          case .scalarValue: continue
          case .emptyInput: return String(decoding: units, as: UTF16.self)
          case .error: return nil
          }
        }
      default:
        return nil
      }
    }

    /// Object `number` as the store holds it, the four native scalars in their own cases.
    func storedObject(at number: Int, depth: Int, budget: inout Int) -> StoredObject? {
      budget -= 1
      guard budget >= 0, let offset = offset(of: number) else { return nil }
      let marker = bytes[offset]
      switch marker {
      case 0x08: return .bool(false)
      case 0x09: return .bool(true)
      case 0x10...0x1F: return integer(marker: marker, at: offset + 1)
      case 0x20...0x2F: return real(marker: marker, at: offset).map { .double($0) }
      case 0x50...0x6F: return string(at: number).map { .string($0) }
      default:
        return contents(at: offset, marker: marker, number: number, depth: depth, budget: &budget)
          .map { .other($0) }
      }
    }

    /// Object `number` as a Swift value, or `nil` when this reader is not sure of it.
    func object(at number: Int, depth: Int, budget: inout Int) -> Any? {
      budget -= 1
      guard budget >= 0, let offset = offset(of: number) else { return nil }
      return contents(
        at: offset, marker: bytes[offset], number: number, depth: depth, budget: &budget)
    }

    private func contents(
      at offset: Int, marker: UInt8, number: Int, depth: Int, budget: inout Int
    ) -> Any? {
      guard depth <= PropertyListBinaryReader.maximumDepth else { return nil }
      switch marker & 0xF0 {
      case 0x00:
        switch marker {
        case 0x08: return false
        case 0x09: return true
        case 0x00: return PropertyListOpaque(value: .null)
        default: return nil  // a fill byte, or an unknown marker: Foundation decides
        }
      case 0x10:
        return integer(marker: marker, at: offset + 1)?.object
      case 0x20:
        return real(marker: marker, at: offset)
      case 0x30:
        guard marker == 0x33, let bits = Self.unsigned64(bytes, at: offset + 1, before: table)
        else { return nil }
        return Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
      case 0x40:
        guard let (count, start) = sized(at: offset), count <= table - start else { return nil }
        return Data(bytes[start..<(start + count)])
      case 0x50, 0x60:
        return string(at: number)
      case 0xA0:
        guard let elements = container(at: offset, pairs: false) else { return nil }
        var array: [Any] = []
        array.reserveCapacity(elements.count)
        for index in 0..<elements.count {
          guard
            let element = object(
              at: reference(index, of: elements), depth: depth + 1, budget: &budget)
          else { return nil }
          array.append(element)
        }
        return array
      case 0xD0:
        guard let entries = container(at: offset, pairs: true) else { return nil }
        var dictionary: [String: Any] = [:]
        dictionary.reserveCapacity(entries.count)
        for index in 0..<entries.count {
          guard let key = string(at: reference(index, of: entries)),
            let value = object(
              at: reference(entries.count + index, of: entries), depth: depth + 1,
              budget: &budget),
            dictionary.updateValue(value, forKey: key) == nil
          else { return nil }
        }
        return dictionary
      case 0x80:
        // A UID: its marker counts its bytes less one. Foundation refuses one above
        // `UInt32.max` (a flipped byte makes one), so that is left to it, and the file is
        // damaged; widths past eight are left to it too.
        let width = Int(marker & 0x0F) + 1
        guard width <= 8, offset + 1 + width <= table,
          let number = Self.unsigned(bytes, at: offset + 1, width: width),
          number <= UInt32.max
        else { return nil }
        return PropertyListOpaque(value: .uid(UInt64(number)))
      default:
        return nil  // a set, a UTF-8 string object: Foundation decides
      }
    }

    /// A real's value: 8 bytes, or 4 (Apple's for a `Float`), read as the exact `Double`.
    func real(marker: UInt8, at offset: Int) -> Double? {
      if marker == 0x22, offset + 5 <= table,
        let bits = Self.unsigned(bytes, at: offset + 1, width: 4)
      {
        return Double(Float(bitPattern: UInt32(bits)))
      }
      guard marker == 0x23, let bits = Self.unsigned64(bytes, at: offset + 1, before: table)
      else { return nil }
      return Double(bitPattern: bits)
    }

    /// An `Int` when it fits, else its `Int64` (``StoredObject/integer(_:)``); a `UInt64`
    /// for a 16-byte one with a zero high half (Apple's writer above `Int64.max`).
    func integer(marker: UInt8, at start: Int) -> StoredObject? {
      let width = 1 << Int(marker & 0x0F)
      switch width {
      case 1, 2, 4:
        guard start + width <= table else { return nil }
        // Unsigned and below 2^32: exact in an Int64.
        return .integer(Int64(truncatingIfNeeded: Self.load(bytes, at: start, width: width)))
      case 8:
        return Self.unsigned64(bytes, at: start, before: table).map {
          .integer(Int64(bitPattern: $0))
        }
      case 16:
        guard let high = Self.unsigned64(bytes, at: start, before: table), high == 0,
          let low = Self.unsigned64(bytes, at: start + 8, before: table)
        else { return nil }
        return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .other(low)
      default:
        return nil
      }
    }
  }
}
