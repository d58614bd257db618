# SpGEMM entry points, device-resident matrices and the hash algorithm: every product compared
# with the CPU reference, on every device backend. One executable of a file per job
# (test_spgemm_hash.c has main; the helpers they share are in spgemm_hash_test_util.h).
set(_spgemm_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_device_test(spgemm_hash
                       SOURCES ${_spgemm_dir}/test_spgemm_hash.c
                               ${_spgemm_dir}/test_spgemm_hash_global.c
                               ${_spgemm_dir}/test_spgemm_hash_dense.c
                               ${_spgemm_dir}/test_spgemm_hash_device_csr.c
                               ${_spgemm_dir}/test_spgemm_hash_errors.c
                               ${_spgemm_dir}/test_spgemm_hash_accumulate.c
                       LABELS spgemm hash TIMEOUT 600)
# Every local bin of a phase in the launch of the largest where it can be
# (MAGNUS_HASH_MERGE_GROUPS past any launch): the whole suite with each bin's items in a larger
# bin's tables.
magnus_add_device_variant(spgemm_hash merged ENV MAGNUS_HASH_MERGE_GROUPS=2147483647
                          LABELS spgemm hash TIMEOUT 600 BACKENDS opencl level0_fake cuda)
# Every hash phase on the main queue alone (MAGNUS_HASH_SIDE_QUEUES=0): the whole suite with no
# ordering between queues, as the knob's measurement runs it (docs/performance.md).
magnus_add_device_variant(spgemm_hash one_queue ENV MAGNUS_HASH_SIDE_QUEUES=0
                          LABELS spgemm hash TIMEOUT 600 BACKENDS opencl cuda)
# Every device scan in one work group that walks its tiles (MAGNUS_SCAN_ONE_GROUP_TILES past
# any scan here): the row offsets of C and the bins' offsets through the one-launch path.
magnus_add_device_variant(spgemm_hash scan_one_group ENV MAGNUS_SCAN_ONE_GROUP_TILES=65536
                          LABELS spgemm hash TIMEOUT 600 BACKENDS opencl cuda)
# C = alpha·A·B and the reusable plan (symbolic once, numeric many).
magnus_add_device_test(spgemm_plan SOURCES ${_spgemm_dir}/test_spgemm_plan.c
                       LABELS spgemm plan TIMEOUT 300)
# MAGNUS_ALGORITHM_AUTO, the default: the algorithm it runs and the share it reports against
# the rule computed on the host, inputs built around its thresholds, the threshold against the
# hash tables of the budget, tiny budgets refused cleanly.
magnus_add_device_test(spgemm_auto SOURCES ${_spgemm_dir}/test_spgemm_auto.c
                       ${_spgemm_dir}/test_spgemm_auto_rows.c ${_spgemm_dir}/auto_test_util.c
                       LABELS spgemm auto TIMEOUT 300)
# gMAGNUS in row blocks under a batch budget, and the device matrices' row blocks and stacking
# beneath it: every product against the CPU reference, the blocks against the host matrix.
magnus_add_device_test(spgemm_batches SOURCES ${_spgemm_dir}/test_spgemm_batches.c
                       LABELS spgemm gmagnus TIMEOUT 300)
# A product whose C cannot fit the device (memory limit) is refused before any phase, naming
# C; one whose C fits, however large its shapes allow, is not.
magnus_add_device_test(spgemm_c_bound SOURCES ${_spgemm_dir}/test_spgemm_c_bound.c
                       LABELS spgemm TIMEOUT 300)
# Star mixtures (issue 34): a few rows of thousands of entries among rows of three, C wider
# than a dense accumulator row; every algorithm against the CPU reference.
magnus_add_device_test(spgemm_star SOURCES ${_spgemm_dir}/test_spgemm_star.c
                       LABELS spgemm star TIMEOUT 300)
