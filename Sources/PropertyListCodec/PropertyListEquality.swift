import Foundation

/// Equality of property-list objects known only as `Any`, as Foundation returns them.
///
/// Two objects are equal only when they are of the same property-list type and hold the
/// same value: Bool, integer, real, string, date, data, array and dictionary are distinct
/// types, so `true`, `1` and `1.0` are three different values (SPEC "A write replaces the
/// type too"), although Foundation's `NSNumber` would call them equal.
package enum PropertyListEquality {
  /// Whether two stored objects hold the same value of the same property-list type.
  /// Cost: linear in the size of the value; constant for numbers and for strings or data
  /// that share storage.
  package static func isEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    // Most comparisons are of two values of one common Swift type: take both as that type
    // with no runtime cast (``ExactTypeCast``), instead of trying casts in turn. Another
    // pair, an `Int` and an `NSNumber` say, is compared by kind below.
    if let lhs = ExactTypeCast.exactly(lhs, as: Int.self),
      let rhs = ExactTypeCast.exactly(rhs, as: Int.self)
    {
      return lhs == rhs
    }
    if let lhs = ExactTypeCast.exactly(lhs, as: String.self),
      let rhs = ExactTypeCast.exactly(rhs, as: String.self)
    {
      return lhs == rhs
    }
    if let lhs = ExactTypeCast.exactly(lhs, as: Bool.self),
      let rhs = ExactTypeCast.exactly(rhs, as: Bool.self)
    {
      return lhs == rhs
    }
    if let lhs = ExactTypeCast.exactly(lhs, as: Double.self),
      let rhs = ExactTypeCast.exactly(rhs, as: Double.self)
    {
      return isSameReal(lhs, rhs)
    }
    let kind = PropertyListKind(of: lhs)
    guard kind == PropertyListKind(of: rhs) else { return false }
    switch kind {
    case .bool: return (lhs as? Bool) == (rhs as? Bool)
    case .integer:
      guard let lhs = lhs as? NSNumber, let rhs = rhs as? NSNumber else { return false }
      return lhs == rhs
    case .real:
      guard let lhs = (lhs as? NSNumber)?.doubleValue, let rhs = (rhs as? NSNumber)?.doubleValue
      else { return false }
      return isSameReal(lhs, rhs)
    case .string: return (lhs as? String) == (rhs as? String)
    case .data: return (lhs as? Data) == (rhs as? Data)
    case .date: return (lhs as? Date) == (rhs as? Date)
    case .array:
      guard let lhs = PropertyListObject.array(lhs), let rhs = PropertyListObject.array(rhs),
        lhs.count == rhs.count
      else { return false }
      return zip(lhs, rhs).allSatisfy { isEqual($0, $1) }
    case .dictionary:
      guard let lhs = PropertyListObject.dictionary(lhs),
        let rhs = PropertyListObject.dictionary(rhs), lhs.count == rhs.count
      else { return false }
      return lhs.allSatisfy { key, value in rhs[key].map { isEqual(value, $0) } ?? false }
    case .opaque: return (lhs as? PropertyListOpaque) == (rhs as? PropertyListOpaque)
    case .other: return false
    }
  }

  /// By bit pattern, except that NaN equals NaN: rewriting a stored NaN changes nothing,
  /// while -0.0 over 0.0 changes the stored value (`==` calls them equal).
  private static func isSameReal(_ lhs: Double, _ rhs: Double) -> Bool {
    lhs.bitPattern == rhs.bitPattern || (lhs.isNaN && rhs.isNaN)
  }
}

/// The property-list type of a stored object, whatever Swift or Foundation type carries it.
package enum PropertyListKind: Equatable {
  case bool, integer, real, string, date, data, array, dictionary
  /// A null or a UID from a binary file (``PropertyListOpaque``).
  case opaque
  case other

  package init(of object: Any) {
    switch object {
    case is Bool where Swift.type(of: object) == Bool.self: self = .bool
    case is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32,
      is UInt64:
      self = Swift.type(of: object) is NSNumber.Type ? Self(number: object as! NSNumber) : .integer
    case is Double, is Float:
      self = Swift.type(of: object) is NSNumber.Type ? Self(number: object as! NSNumber) : .real
    case let number as NSNumber: self = Self(number: number)
    case is String, is NSString: self = .string
    case is Data, is NSData: self = .data
    case is Date, is NSDate: self = .date
    case is PropertyListOpaque: self = .opaque
    default:
      if PropertyListObject.array(object) != nil {
        self = .array
      } else if PropertyListObject.dictionary(object) != nil {
        self = .dictionary
      } else {
        self = .other
      }
    }
  }

  /// An `NSNumber`'s type: Foundation's Boolean class, else its stored C type.
  private init(number: NSNumber) {
    if Swift.type(of: number) == Self.booleanClass {
      self = .bool
    } else {
      switch UInt8(bitPattern: number.objCType.pointee) {
      case UInt8(ascii: "f"), UInt8(ascii: "d"): self = .real
      default: self = .integer
      }
    }
  }

  private static let booleanClass: AnyClass = Swift.type(of: NSNumber(value: true))
}
