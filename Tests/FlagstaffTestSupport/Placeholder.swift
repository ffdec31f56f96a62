// Shared test helpers live here.
import Foundation
