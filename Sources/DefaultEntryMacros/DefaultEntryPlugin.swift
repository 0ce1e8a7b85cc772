@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// The compiler plugin's entry point. `SwiftCompilerPlugin` (which would provide this) is
/// not shipped with the toolchain's swift-syntax, so the plugin answers the compiler's
/// messages itself; this is the only code that uses the toolchain-specific SPI.
@main
struct DefaultEntryPlugin: PluginProvider {
  struct UnknownMacro: Error, CustomStringConvertible {
    let description: String
  }

  func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
    guard typeName == "DefaultEntryMacro" else {
      throw UnknownMacro(description: "no macro named \(moduleName).\(typeName) in this plugin")
    }
    return DefaultEntryMacro.self
  }

  func loadPluginLibrary(libraryPath: String, moduleName: String) throws {
    throw UnknownMacro(description: "this plugin loads no libraries")
  }

  var features: [PluginFeature] { [] }

  static func main() throws {
    let listener = CompilerPluginMessageListener(
      connection: try StandardIOMessageConnection(), provider: DefaultEntryPlugin())
    try listener.main()
  }
}
