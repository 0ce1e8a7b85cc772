import Foundation
import PropertyListCodec

extension PropertyListObject {
  /// Returns `object` rebuilt from property-list types only, or throws
  /// ``DefaultsDiagnostic/Kind/refusedValue`` naming the first offending element.
  /// Cost: one pass over the value, allocating a copy of its collections.
  static func validated(_ object: Any, at path: String = "value") throws(DefaultsError) -> Any {
    guard let object = unwrapped(object) else {
      throw DefaultsError(.refusedValue, "\(path) is nil, which a property list cannot hold")
    }
    switch object {
    case is String, is Bool, is Data, is Date:
      return object
    case is Int, is Int8, is Int16, is Int32, is Int64, is UInt8, is UInt16, is UInt32, is UInt64,
      is Double:
      return object
    case let value as UInt:
      return UInt64(value)
    case let value as Float:
      return Double(value)
    case let value as NSString:
      return value as String
    case let value as NSNumber:
      return value
    case let value as NSData:
      return value as Data
    case let value as NSDate:
      return value as Date
    default:
      break
    }
    if let array = object as? [Any] {
      var result: [Any] = []
      result.reserveCapacity(array.count)
      for (index, element) in array.enumerated() {
        result.append(try validated(element, at: "\(path)[\(index)]"))
      }
      return result
    }
    if let dictionary = object as? [AnyHashable: Any] {
      var result: [String: Any] = [:]
      for (key, element) in dictionary {
        guard let key = key.base as? String else {
          throw DefaultsError(
            .refusedValue,
            "\(path) has a key of type \(type(of: key.base)); property lists need String keys")
        }
        result[key] = try validated(element, at: "\(path)[\"\(key)\"]")
      }
      return result
    }
    throw DefaultsError(
      .refusedValue, "\(path) is a \(type(of: object)), which is not a property-list type")
  }
}
