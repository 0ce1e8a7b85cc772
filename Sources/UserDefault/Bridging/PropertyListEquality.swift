import Foundation

/// Equality of property-list objects known only as `Any`, as Foundation returns them.
enum PropertyListEquality {
  /// Whether two stored objects hold the same value. Cost: linear in the size of the
  /// value; constant for numbers and for strings or data that share storage.
  static func isEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    // Most comparisons are of two values of one common type: compare the types first
    // (free), then make one cast that cannot fail, instead of trying casts in turn.
    let type = Swift.type(of: lhs)
    if type == Swift.type(of: rhs) {
      if type == Int.self { return lhs as! Int == rhs as! Int }
      if type == String.self { return lhs as! String == rhs as! String }
      if type == Bool.self { return lhs as! Bool == rhs as! Bool }
      if type == Double.self {
        let (left, right) = (lhs as! Double, rhs as! Double)
        return left == right || (left.isNaN && right.isNaN)
      }
    }
    switch (lhs, rhs) {
    case (let lhs as String, let rhs as String): return lhs == rhs
    case (let lhs as Data, let rhs as Data): return lhs == rhs
    case (let lhs as Date, let rhs as Date): return lhs == rhs
    case (let lhs as Bool, let rhs as Bool): return lhs == rhs
    case (let lhs as Int, let rhs as Int): return lhs == rhs
    case (let lhs as Double, let rhs as Double): return lhs == rhs || (lhs.isNaN && rhs.isNaN)
    case (let lhs as NSNumber, let rhs as NSNumber): return lhs == rhs
    default: break
    }
    if let lhs = PropertyListObject.array(lhs) {
      guard let rhs = PropertyListObject.array(rhs), lhs.count == rhs.count else { return false }
      return zip(lhs, rhs).allSatisfy { isEqual($0, $1) }
    }
    if let lhs = PropertyListObject.dictionary(lhs) {
      guard let rhs = PropertyListObject.dictionary(rhs), lhs.count == rhs.count else {
        return false
      }
      return lhs.allSatisfy { key, value in rhs[key].map { isEqual(value, $0) } ?? false }
    }
    return false
  }
}
