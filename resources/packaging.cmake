# CPack: `cpack -G DEB` in the build folder makes partwise_<version>_<arch>.deb.
# Included once at the end of the top-level CMakeLists.txt.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME partwise)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The Partwise developers")
set(CPACK_PACKAGE_CONTACT "Partwise developers <maintainers@partwise.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "partition editor that gets alignment right")
set(CPACK_PACKAGE_DESCRIPTION
    "Partwise draws every disk as a map and highlights partitions that are not aligned to\n\
the physical sectors of Advanced Format disks, SSDs and RAID arrays. It creates new\n\
partitions on a 1 MiB grain and realigns existing ones by moving their data, journaled\n\
so that a power cut loses nothing. partwise-cli checks and fixes alignment from scripts.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://partwise.org/")
# The filesystem and partitioning tools run by core/fs, pkexec for the helper, and the Qt SVG
# plugins for the SVG icons (loaded at run time, so dpkg-shlibdeps cannot see them).
set(partwise_runtime "fdisk, parted, gdisk, e2fsprogs, dosfstools, mtools, util-linux, \
pkexec | policykit-1, libqt6svg6")
find_program(DPKG_SHLIBDEPS_EXECUTABLE dpkg-shlibdeps)
if(DPKG_SHLIBDEPS_EXECUTABLE)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "${partwise_runtime}")
else()
    set(CPACK_DEBIAN_PACKAGE_DEPENDS
        "libqt6widgets6, libparted2, libblkid1, libfdisk1, libmount1, ${partwise_runtime}")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "xfsprogs, btrfs-progs, ntfs-3g, zenity | kdialog")

include(CPack)
