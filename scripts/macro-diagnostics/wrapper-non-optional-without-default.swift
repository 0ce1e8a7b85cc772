import DefaultEntry
import Foundation

// Mistake: a UserDefaultsWrapper of a non-optional value without `default:`; the optional
// form beside it must still compile.
struct Settings {
  @UserDefaultsWrapper(key: "Age") var age: Int
  @UserDefaultsWrapper(key: "Nickname") var nickname: String?
}

// expect: 7:4: error: 'init(key:userDefaults:file:line:)' is unavailable: a non-optional value needs `default:`, as in @UserDefaultsWrapper(key: "Age", default: 0) var age: Int; or make the property optional
// expect: Sources/UserDefault/Surfaces/UserDefaultsWrapper.swift: note: 'init(key:userDefaults:file:line:)' has been explicitly marked unavailable here
