// `UserDefaults` and the value types stored in it (Date, URL, Data, UUID) come from
// Foundation; re-exporting it lets `import UserDefault` alone declare keys and entries.
@_exported import Foundation
