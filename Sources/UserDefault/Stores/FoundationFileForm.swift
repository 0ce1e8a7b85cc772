import Foundation
import PropertyListCodec

/// The form of a stored object that Foundation's own `synchronize()` on Linux keeps
/// exactly.
///
/// `synchronize()` writes the suite's domain as XML and, on its next call, reads it back
/// into memory (swift-corelibs-foundation 6.3.1). XML keeps a `<date>` to whole seconds,
/// rounding down, and writes `-0.0` as `0.0`. Legacy code calls `synchronize()` all the
/// time, so objects are stored in a form that survives it, which the readers turn back:
///
/// | value | stored on a Linux Foundation instance as | what a plain Foundation reader sees |
/// |---|---|---|
/// | a `Date` of whole seconds, from `distantPast` to `distantFuture` | itself | a `Date` |
/// | any other `Date` (a fraction, `-0.0` seconds, beyond those bounds) | its seconds since 2001 | a `Double` |
/// | `-0.0` | the text `"-0.0"` | a `String` (`double(forKey:)` parses it) |
///
/// inside arrays and dictionaries too. Everything else is stored as it is. A
/// ``PreferencesStore`` and Foundation on Apple platforms write binary files, which keep
/// all of these: there, values are stored as themselves.
enum FoundationFileForm {
  /// `object` in the form that survives Foundation's XML; `object` itself, moved, when it
  /// needs none (`nil` stays `nil`). Cost: a few type checks for a scalar; a pass over the
  /// elements of a container.
  static func exact(_ object: consuming Any?) -> Any? {
    #if canImport(Darwin)
      return object
    #else
      switch consume object {
      case .none: return nil
      // Not through `exactElement(_:)`, which returns a copy: here the object is moved.
      case .some(let object): return needsChange(object) ? converted(object) : object
      }
    #endif
  }

  /// An element of a container, in the form that survives Foundation's XML.
  private static func exactElement(_ object: Any) -> Any {
    needsChange(object) ? converted(object) : object
  }

  /// The form that survives Foundation's XML of an object ``needsChange(_:)`` found.
  private static func converted(_ object: Any) -> Any {
    if let date = object as? Date { return exactElement(date.timeIntervalSinceReferenceDate) }
    if object is Double { return PropertyListObject.negativeZeroText }
    if let array = object as? [Any] { return array.map(exactElement) }
    if let dictionary = object as? [String: Any] { return dictionary.mapValues(exactElement) }
    return object
  }

  /// A date XML cannot hold, `-0.0`, or a container holding one.
  private static func needsChange(_ object: Any) -> Bool {
    // The common scalars are told by their type alone: every failed cast below may try
    // Foundation's bridging, and a write pays this check on every call.
    let type = type(of: object)
    if type == Int.self || type == String.self || type == Bool.self || type == Data.self {
      return false
    }
    if let date = object as? Date { return !isWholeXMLDate(date.timeIntervalSinceReferenceDate) }
    if let number = object as? Double { return number == 0 && number.sign == .minus }
    if let array = object as? [Any] { return array.contains(where: needsChange) }
    if let dictionary = object as? [String: Any] {
      return dictionary.values.contains(where: needsChange)
    }
    return false
  }

  private static func isWholeXMLDate(_ seconds: Double) -> Bool {
    seconds.rounded(.towardZero) == seconds && !(seconds == 0 && seconds.sign == .minus)
      && (Date.distantPast
        .timeIntervalSinceReferenceDate...Date.distantFuture.timeIntervalSinceReferenceDate)
        .contains(seconds)
  }
}
