import DefaultEntry
import Foundation

// Mistake: several variables in one declaration. The compiler refuses an accessor macro
// there before the macro runs, with errors of its own (two per variable): a limit of
// accessor macros, not one the macro can change.
extension UserDefaults {
  @DefaultEntry(default: 1)
  var first, second: Int
}

// expect: 9:7: error: accessor macro 'DefaultEntry(default:prefixedWith:)' can only apply to a single variable
// expect: 9:7: error: extensions must not contain stored properties
// expect: 9:14: error: accessor macro 'DefaultEntry(default:prefixedWith:)' can only apply to a single variable
// expect: 9:14: error: extensions must not contain stored properties
