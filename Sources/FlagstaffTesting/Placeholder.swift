import Flagstaff
