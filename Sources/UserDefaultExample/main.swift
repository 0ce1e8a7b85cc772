// Counts its launches and keeps a Codable profile, through several of the library's
// surfaces. Run it twice: the count goes up, because the library saves on Linux too.
import DefaultEntry
import SafeDefaultsKit

struct Profile: Codable, Sendable {
  var name: String
  var lastLaunch: Date
}

enum Theme: String, Sendable { case system, light, dark }

extension UserDefaults.Keys {
  static let launchCount = Key<Int>("launchCount", default: 0)
  static let theme = Key<Theme>("theme", default: .system)
  static let profile = Key<Profile?>("profile")
}

extension UserDefaults {
  @DefaultEntry<String> var lastGreetingShown: String?
}

struct ExampleDefaults: SafeDefaults {
  enum Keys: String, DefaultsKey { case lastArguments }
}

final class Session {
  @UserDefaultsWrapper(key: "greeting", default: "Hello") var greeting: String
}

let defaults = UserDefaults.standard
defaults[.launchCount] += 1
let previous = defaults[.profile]
defaults[.profile] = Profile(name: "example", lastLaunch: Date())
ExampleDefaults().set(Array(CommandLine.arguments.dropFirst()), forKey: .lastArguments)

let session = Session()
print("\(session.greeting)! This program has run \(defaults[.launchCount]) time(s).")
if let previous {
  print("Previous launch: \(previous.lastLaunch) (profile \"\(previous.name)\")")
}
if let shown = defaults.lastGreetingShown { print("Last greeting shown: \(shown)") }
defaults.lastGreetingShown = session.greeting
print("Theme: \(defaults[.theme]) (default: \(defaults.isDefaultValue(.theme)))")

// A command-line tool makes a failed save (a full disk, a file the user froze) its exit
// status, so the user's setting is not lost with only a line on standard error. On Apple
// platforms Foundation saves by itself and this returns true.
guard FoundationSaving.saveNow() else {
  FileHandle.standardError.write(Data("UserDefaultExample: the preferences were not saved\n".utf8))
  exit(1)
}
