#!/usr/bin/env bash
# System packages for the 3D table and its tests of the real window: an X server without a screen
# (Xvfb), a pointer and keyboard driven from outside (xdotool), the X clipboard read and written
# from outside (xclip), Mesa's software Vulkan (lavapipe) and the X11 libraries winit opens at run
# time. Idempotent.
set -euo pipefail

packages=(
    xvfb xauth xdotool xclip
    mesa-vulkan-drivers libvulkan1
    libx11-6 libxcursor1 libxrandr2 libxi6 libxkbcommon0 libxkbcommon-x11-0
    pkg-config
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "setup-apt: all packages present"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
