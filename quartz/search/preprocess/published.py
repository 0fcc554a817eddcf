"""Published gate counts that the preprocessing is compared with."""

# Quartz's "Quartz preprocess" column of reference/published-results.md.
QUARTZ_PREPROCESS = {
    "adder_8": 732, "barenco_tof_3": 46, "barenco_tof_4": 86, "barenco_tof_5": 126,
    "barenco_tof_10": 326, "csla_mux_3": 164, "csum_mux_9": 308, "gf2^4_mult": 186,
    "gf2^5_mult": 287, "gf2^6_mult": 401, "gf2^7_mult": 543, "gf2^8_mult": 703,
    "gf2^9_mult": 879, "gf2^10_mult": 1062, "mod5_4": 51, "mod_mult_55": 105, "mod_red_21": 236,
    "qcla_adder_10": 450, "qcla_com_7": 349, "qcla_mod_7": 727, "rc_adder_6": 174, "tof_3": 39,
    "tof_4": 63, "tof_5": 87, "tof_10": 207, "vbe_adder_3": 115,
}
