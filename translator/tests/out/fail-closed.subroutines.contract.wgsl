rejected: rejected at instruction 1: subroutines and interfaces [fail-closed/subroutines]
