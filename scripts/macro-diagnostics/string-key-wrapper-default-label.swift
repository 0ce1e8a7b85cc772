import DefaultEntry
import Foundation

// Mistake: the string-key @UserDefault given `default:`, the label of Key and
// UserDefaultsWrapper, instead of its own `defaultValue:`.
struct Settings {
  @UserDefault("isDiscountProvided", default: false) var isDiscountProvided: Bool
}

// expect: 7:4: error: 'init(_:default:suite:defaults:)' has been renamed to 'init(_:defaultValue:suite:defaults:)': the string-key wrapper's default is labelled defaultValue:
// expect: Sources/UserDefault/Surfaces/UserDefault.swift: note: 'init(_:default:suite:defaults:)' has been explicitly marked unavailable here
