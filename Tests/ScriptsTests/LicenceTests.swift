import Foundation
import Testing
import ProcessSupport

/// faad2 and Debian's libavcodec are GPL-2.0-or-later: README's License section names the
/// products that link either, and the rest stay free of them. A product that comes to link
/// `CFAAD2` or `CAVCodec` (through any chain of targets) without README saying so fails here, and
/// so does one README names that no longer links either.
@Suite("Licences of the products")
struct LicenceTests {
    /// The targets that bring in GPL libraries (CAVCodec opens libavcodec with dlopen, which
    /// binds the program as linking does).
    static let gplTargets: Set<String> = ["CFAAD2", "CAVCodec"]

    @Test func theProductsThatLinkGPLLibrariesAreTheOnesREADMENames() throws {
        let manifest = try DebianPackagesTests().dumpPackage("")
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        let products = try #require(manifest["products"] as? [[String: Any]])
        var dependencies: [String: [String]] = [:]
        for target in targets {
            let name = try #require(target["name"] as? String)
            let entries = target["dependencies"] as? [[String: Any]] ?? []
            dependencies[name] = entries.compactMap { entry in
                // byName and target name a target of this package; product names another package's.
                for key in ["byName", "target"] {
                    if let value = entry[key] as? [Any?], let first = value.first as? String { return first }
                }
                return nil
            }
        }
        func closure(_ roots: [String]) -> Set<String> {
            var seen = Set<String>(), stack = roots
            while let next = stack.popLast() {
                if seen.insert(next).inserted { stack += dependencies[next] ?? [] }
            }
            return seen
        }
        var linking = Set<String>()
        for product in products {
            let name = try #require(product["name"] as? String)
            let roots = product["targets"] as? [String] ?? []
            if !closure(roots).isDisjoint(with: Self.gplTargets) { linking.insert(name) }
        }
        #expect(!linking.isEmpty, "no product links a GPL library: the check sees no dependency at all")

        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix("GPL products: ") },
                                "README has no 'GPL products: ' line in its License section")
        let named = Set(line.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            .filter { !$0.hasSuffix(".so") })
        for product in linking.subtracting(named).sorted() {
            Issue.record("\(product) links faad2 or libavcodec (GPL-2.0-or-later) but README's License section does not say so")
        }
        for product in named.subtracting(linking).sorted() {
            Issue.record("README names \(product) as linking faad2 or libavcodec, but it does not")
        }
    }
}
