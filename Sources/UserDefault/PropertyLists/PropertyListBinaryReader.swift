import Foundation

/// Reads a binary property list (`bplist00`) whose root is a dictionary, as the store holds
/// its values: the twin of ``PropertyListXMLReader`` for the format macOS keeps
/// preferences in, so that a binary file is not left to `PropertyListSerialization`,
/// which builds every value as a Foundation object and bridges it back.
///
/// It builds the same Swift values the XML reader builds: `String`, `Int` (or `UInt64`
/// above `Int64.max`), `Double`, `Bool`, `Date` (to the bit of its seconds), `Data`,
/// `[Any]` and `[String: Any]`, and a null or a UID as a ``PropertyListOpaque``, which the
/// binary writer writes back; the root dictionary's values as ``StoredObject``s. Anything
/// it is not sure of makes it return `nil`, and the caller falls back to
/// `PropertyListSerialization`, which also judges damage: another version than `00`, a
/// set, a UTF-8 string object, a dictionary that names one key twice (readers
/// disagree on which value wins; Foundation keeps the first), a 16-byte integer with a high half,
/// a dictionary key that is not a string, an offset or reference out of bounds, and
/// containers nested deeper than ``maximumDepth`` (which also ends a reference cycle).
/// It never traps on input: every read is bounds-checked, and every size the input gives
/// is checked before it is used.
///
/// Cost: linear in the number of objects; each object is read once per reference to it,
/// up to eight reads an object (a file whose objects share their parts more than that,
/// which no writer makes, is left to Foundation rather than read exponentially).
enum PropertyListBinaryReader {
  /// Containers nested deeper than this are left to Foundation.
  static let maximumDepth = 512

  /// The root dictionary's values, or `nil` when the bytes are not a binary property list
  /// this reader is sure of.
  ///
  /// - Parameter bytes: The file's bytes.
  /// - Returns: The values as the store holds them.
  ///
  ///     let values = data.withUnsafeBytes(PropertyListBinaryReader.storedObjects)
  static func storedObjects(in bytes: UnsafeRawBufferPointer) -> [String: StoredObject]? {
    guard let document = Document(bytes), let root = document.dictionary(at: document.root)
    else { return nil }
    var budget = document.count.multipliedReportingOverflow(by: 8).partialValue
    var values: [String: StoredObject] = [:]
    values.reserveCapacity(root.count)
    for (key, reference) in root {
      guard values[key] == nil,
        let value = document.object(at: reference, depth: 1, budget: &budget)
      else { return nil }
      values[key] = StoredObject(value)
    }
    return values
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

    /// The one read of a big-endian number: `width` (at most 8) bytes at `offset`, if they
    /// end by `end` (at most the buffer's end).
    private static func bigEndian(
      _ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int, before end: Int
    ) -> UInt64? {
      guard offset >= 0, width <= 8, width <= end, end <= bytes.count, offset <= end - width
      else { return nil }
      var value: UInt64 = 0
      for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
      return value
    }

    /// Where object `number` starts.
    func offset(of number: Int) -> Int? {
      guard number >= 0, number < count,
        let offset = Self.unsigned(bytes, at: table + number * offsetWidth, width: offsetWidth),
        offset >= 8, offset < table
      else { return nil }
      return offset
    }

    /// The count in an object's marker, or in the integer after it; and where the
    /// object's content starts.
    func sized(at offset: Int) -> (count: Int, start: Int)? {
      let low = Int(bytes[offset] & 0x0F)
      guard low == 0x0F else { return (low, offset + 1) }
      guard offset + 1 < table, bytes[offset + 1] & 0xF0 == 0x10 else { return nil }
      let width = 1 << Int(bytes[offset + 1] & 0x0F)
      guard width <= 8, let count = Self.unsigned(bytes, at: offset + 2, width: width) else {
        return nil
      }
      return (count, offset + 2 + width)
    }

    /// `count` references starting at `start`, if they fit before the offset table.
    func references(count: Int, at start: Int) -> [Int]? {
      guard count <= (table - start) / referenceWidth else { return nil }
      var references: [Int] = []
      references.reserveCapacity(count)
      for index in 0..<count {
        guard
          let reference = Self.unsigned(
            bytes, at: start + index * referenceWidth, width: referenceWidth)
        else { return nil }
        references.append(reference)
      }
      return references
    }

    /// The dictionary object `number`, its values as references.
    func dictionary(at number: Int) -> [(String, Int)]? {
      guard let offset = offset(of: number), bytes[offset] & 0xF0 == 0xD0,
        let (count, start) = sized(at: offset), count <= Int.max / 2,
        let references = references(count: count * 2, at: start)
      else { return nil }
      var entries: [(String, Int)] = []
      entries.reserveCapacity(count)
      for index in 0..<count {
        guard let key = string(at: references[index]) else { return nil }
        entries.append((key, references[count + index]))
      }
      return entries
    }

    func string(at number: Int) -> String? {
      guard let offset = offset(of: number), let (count, start) = sized(at: offset) else {
        return nil
      }
      switch bytes[offset] & 0xF0 {
      case 0x50:
        guard count <= table - start else { return nil }
        let ascii = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
        guard ascii.allSatisfy({ $0 < 0x80 }) else { return nil }
        return String(decoding: ascii, as: UTF8.self)
      case 0x60:
        guard count <= (table - start) / 2 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(count)
        for index in 0..<count {
          units.append(UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1]))
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

    /// Object `number` as a Swift value, or `nil` when this reader is not sure of it.
    func object(at number: Int, depth: Int, budget: inout Int) -> Any? {
      budget -= 1
      guard budget >= 0, depth <= PropertyListBinaryReader.maximumDepth,
        let offset = offset(of: number)
      else { return nil }
      let marker = bytes[offset]
      switch marker & 0xF0 {
      case 0x00:
        switch marker {
        case 0x08: return false
        case 0x09: return true
        case 0x00: return PropertyListOpaque(value: .null)
        default: return nil  // a fill byte, or an unknown marker: Foundation decides
        }
      case 0x10:
        return integer(marker: marker, at: offset + 1)
      case 0x20:
        // A 4-byte real (Apple's writer makes them for a `Float`) reads as the Double it
        // is exactly; written back, it takes 8 bytes and the same value.
        if marker == 0x22, offset + 5 <= table,
          let bits = Self.unsigned(bytes, at: offset + 1, width: 4)
        {
          return Double(Float(bitPattern: UInt32(bits)))
        }
        guard marker == 0x23, let bits = Self.unsigned64(bytes, at: offset + 1, before: table)
        else { return nil }
        return Double(bitPattern: bits)
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
        guard let (count, start) = sized(at: offset),
          let references = references(count: count, at: start)
        else { return nil }
        var array: [Any] = []
        array.reserveCapacity(count)
        for reference in references {
          guard let element = object(at: reference, depth: depth + 1, budget: &budget) else {
            return nil
          }
          array.append(element)
        }
        return array
      case 0xD0:
        guard let entries = dictionary(at: number) else { return nil }
        var dictionary: [String: Any] = [:]
        dictionary.reserveCapacity(entries.count)
        for (key, reference) in entries {
          guard dictionary[key] == nil,
            let value = object(at: reference, depth: depth + 1, budget: &budget)
          else { return nil }
          dictionary[key] = value
        }
        return dictionary
      case 0x80:
        // A UID: its marker counts its bytes less one.
        let width = Int(marker & 0x0F) + 1
        guard width <= 8, offset + 1 + width <= table,
          let number = Self.unsigned(bytes, at: offset + 1, width: width)
        else { return nil }
        return PropertyListOpaque(value: .uid(UInt64(number)))
      default:
        return nil  // a set, a UTF-8 string object: Foundation decides
      }
    }

    /// An integer object's value: `Int` when it fits, `UInt64` for a 16-byte one whose
    /// high half is zero (what Apple's writer writes above `Int64.max`).
    func integer(marker: UInt8, at start: Int) -> Any? {
      let width = 1 << Int(marker & 0x0F)
      switch width {
      case 1, 2, 4:
        guard start + width <= table else { return nil }
        return Self.unsigned(bytes, at: start, width: width)
      case 8:
        return Self.unsigned64(bytes, at: start, before: table).map { Int(Int64(bitPattern: $0)) }
      case 16:
        guard let high = Self.unsigned64(bytes, at: start, before: table), high == 0,
          let low = Self.unsigned64(bytes, at: start + 8, before: table)
        else { return nil }
        return low <= UInt64(Int64.max) ? Int(low) : low as Any
      default:
        return nil
      }
    }

  }
}
