// The composition root is wired up as the shop's modules land.
import Foundation

print("drinkshop: this build has no shop yet")
exit(1)
