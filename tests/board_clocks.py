"""What each board's targets/<board>/clock.c must leave in its registers at
the maximum clock, with the meaning and the manual that says so, and the
register model the host test runs it against (tests/clock_host/regs.c):
reset values, status bits that follow their control bits, ready flags."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reg:
    name: str
    addr: int
    value: int  # what the register holds when the set-up returns (its written bits, no status)
    meaning: str
    source: str


@dataclass(frozen=True)
class Board:
    target: str
    hz: int
    regs: tuple[Reg, ...]
    model: tuple[str, ...]  # regs.c model lines: init / ready / mirror / when
    first_wait: str  # the flag a model with no ready bits stops at


RM0351 = "RM0351 rev 9"
L475 = Board("b-l475e-iot01a", 80_000_000, (
    Reg("PWR_CR1", 0x40007000, 0x00000200, "VOS = 01: voltage range 1 (up to 80 MHz)",
        f"{RM0351} 5.4.1"),
    Reg("RCC_CR", 0x40021000, 0x01000069,
        "MSION, MSIRGSEL, MSIRANGE = 6 (4 MHz), PLLON", f"{RM0351} 6.4.1"),
    Reg("RCC_PLLCFGR", 0x4002100C, 0x01202801,
        "PLLSRC = MSI, PLLM = /1, PLLN = 40, PLLQ = /4, PLLREN, PLLR = /2: 4 x 40 / 2 = 80 MHz",
        f"{RM0351} 6.4.4"),
    Reg("FLASH_ACR", 0x40022000, 0x00000704,
        "LATENCY = 4 WS, PRFTEN, ICEN, DCEN (ART: prefetch, I- and D-cache)",
        f"{RM0351} 3.7.1, Table 12 (4 WS for 64-80 MHz in range 1)"),
    Reg("RCC_CFGR", 0x40021008, 0x00000003, "SW = PLL; HPRE, PPRE1, PPRE2 = /1",
        f"{RM0351} 6.4.3"),
), (
    "init 0x40021000 0x61", "init 0x40007000 0x200", "init 0x4002100C 0x1000",
    "init 0x40022000 0x600",
    "mirror 0x40021000 0x02000002 0x40021000 0x01000001 1",  # PLLRDY, MSIRDY
    "mirror 0x40021008 0xC 0x40021008 0x3 2",  # SWS = SW
), "RCC_CR MSIRDY (MSI)")

RM0090 = "RM0090 rev 19"
F407 = Board("stm32f407", 168_000_000, (
    Reg("PWR_CR", 0x40007000, 0x00004000, "VOS = 1: scale 1 (up to 168 MHz)", f"{RM0090} 5.4.1"),
    Reg("RCC_CR", 0x40023800, 0x01010081, "HSION, HSITRIM = 16, HSEON, PLLON", f"{RM0090} 7.3.1"),
    Reg("RCC_PLLCFGR", 0x40023804, 0x07405408,
        "PLLM = 8, PLLN = 336, PLLP = /2, PLLSRC = HSE, PLLQ = 7: 8 / 8 x 336 / 2 = 168 MHz",
        f"{RM0090} 7.3.2"),
    Reg("FLASH_ACR", 0x40023C00, 0x00000705,
        "LATENCY = 5 WS, PRFTEN, ICEN, DCEN (ART accelerator)",
        f"{RM0090} 3.9.1, Table 10 (5 WS for 150-168 MHz at 2.7-3.6 V)"),
    Reg("RCC_CFGR", 0x40023808, 0x00009402,
        "SW = PLL, HPRE = /1, PPRE1 = /4 (APB1 42 MHz), PPRE2 = /2 (APB2 84 MHz)",
        f"{RM0090} 7.3.3"),
), (
    "init 0x40023800 0x81", "init 0x40023804 0x24003010", "init 0x40007000 0x4000",
    "mirror 0x40023800 0x02020002 0x40023800 0x01010001 1",  # PLLRDY, HSERDY, HSIRDY
    "mirror 0x40023808 0xC 0x40023808 0x3 2",
), "RCC_CR HSERDY (8 MHz HSE crystal)")

K64RM = "K64P144M120SF5RM rev 2"
K64F = Board("frdm-k64f", 120_000_000, (
    Reg("SIM_CLKDIV1", 0x40048044, 0x01240000,
        "OUTDIV1 /1 (core 120 MHz), OUTDIV2 /2 (bus 60), OUTDIV3 /3 (FlexBus 40), "
        "OUTDIV4 /5 (flash 24)", f"{K64RM} 12.2.16"),
    Reg("OSC_CR", 0x40065000, 0x80, "ERCLKEN: OSCERCLK on (50 MHz)", f"{K64RM} 26.71.1"),
    Reg("MCG_C2", 0x40064001, 0xA0, "LOCRE0, RANGE0 = very high, EREFS0 = 0 (external clock)",
        f"{K64RM} 25.3.2"),
    Reg("MCG_C5", 0x40064004, 0x53, "PLLCLKEN0, PRDIV0 = 0x13 (/20): 2.5 MHz PLL input",
        f"{K64RM} 25.3.5"),
    Reg("MCG_C6", 0x40064005, 0x58, "PLLS, VDIV0 = 0x18 (x48): 120 MHz", f"{K64RM} 25.3.6"),
    Reg("MCG_C1", 0x40064000, 0x02, "CLKS = PLL/FLL output, FRDIV = 0, IREFS = 0, IRCLKEN",
        f"{K64RM} 25.3.1"),
    Reg("MCG_C7", 0x4006400C, 0x00, "OSCSEL = OSCCLK", f"{K64RM} 25.3.13"),
    Reg("SIM_SOPT2", 0x40048004, 0x00010000, "PLLFLLSEL = MCGPLLCLK", f"{K64RM} 12.2.3"),
    Reg("SIM_SOPT1", 0x40047000, 0x00080000, "OSC32KSEL = RTC32KCLK", f"{K64RM} 12.2.1"),
    Reg("FMC_PFB0CR", 0x4001F004, 0x3004001F,
        "B0DCE, B0ICE, B0DPE, B0IPE, B0SEBE: bank 0 cache and prefetch on (B0RWSC = 3, fixed)",
        f"{K64RM} 29.4.2"),
    Reg("FMC_PFB1CR", 0x4001F008, 0x3004001F, "the same for bank 1", f"{K64RM} 29.4.3"),
), (
    "init 0x40064000 0x04", "init 0x40064001 0x80", "init 0x40048044 0x00010000",
    "init 0x4001F004 0x3004001F", "init 0x4001F008 0x3004001F",
    "mirror 0x40064006 0x10 0x40064000 0x04 2",  # IREFST = IREFS
    "mirror 0x40064006 0x0C 0x40064000 0xC0 -4",  # CLKST = CLKS (FLL, IRC, external)
    # CLKS = 0 with PLLS set: CLKST = 3 (PLL), one bit from PLLS each
    "when 0x40064000 0xC0 0x00", "mirror 0x40064006 0x08 0x40064005 0x40 -3",
    "when 0x40064000 0xC0 0x00", "mirror 0x40064006 0x04 0x40064005 0x40 -4",
    "mirror 0x40064006 0x20 0x40064005 0x40 -1",  # PLLST = PLLS
    "mirror 0x40064006 0x40 0x40064004 0x40 0",  # LOCK0 once PLLCLKEN0
), "MCG_S IREFST clear, CLKST = external (FBE: the 50 MHz EXTAL0 clock)")

NRF = "nRF52840 PS v1.7"
NRF52840 = Board("nrf52840dk", 64_000_000, (
    Reg("CLOCK TASKS_HFCLKSTART", 0x40000000, 0x1, "start HFXO (the 32 MHz crystal) as HFCLK",
        f"{NRF} 6.4.8"),
    Reg("CLOCK EVENTS_HFCLKSTARTED", 0x40000100, 0x0, "event cleared after HFXO ran",
        f"{NRF} 6.4.8"),
    Reg("NVMC ICACHECNF", 0x4001E540, 0x1, "CACHEEN: flash instruction cache on",
        f"{NRF} 4.3.9.11"),
), (
    "ready 0x40000100 0x1", "ready 0x4000040C 0x10001",  # HFCLKSTARTED; HFCLKSTAT Xtal, running
), "CLOCK EVENTS_HFCLKSTARTED (HFXO)")

RM0367 = "RM0367 rev 7"
L053 = Board("nucleo-l053r8", 32_000_000, (
    Reg("PWR_CR", 0x40007000, 0x00000800, "VOS = 01: range 1 (1.8 V, up to 32 MHz)",
        f"{RM0367} 6.4.1"),
    Reg("RCC_CR", 0x40021000, 0x01000101, "MSION, HSI16ON, PLLON", f"{RM0367} 7.3.1"),
    Reg("FLASH_ACR", 0x40022000, 0x00000003, "LATENCY = 1 WS, PRFTEN",
        f"{RM0367} 3.7.1, Table 13 (1 WS above 16 MHz in range 1)"),
    Reg("RCC_CFGR", 0x4002100C, 0x00440003,
        "SW = PLL, PLLSRC = HSI16, PLLMUL = x4, PLLDIV = /2: 16 x 4 / 2 = 32 MHz; AHB, APB /1",
        f"{RM0367} 7.3.3"),
), (
    "init 0x40021000 0x100", "init 0x40007000 0x1000",
    "mirror 0x40021000 0x02000200 0x40021000 0x01000100 1",  # PLLRDY, MSIRDY
    "mirror 0x40021000 0x04 0x40021000 0x01 2",  # HSI16RDYF follows HSI16ON
    "mirror 0x4002100C 0xC 0x4002100C 0x3 2",
), "RCC_CR HSI16RDYF (HSI16)")

BOARDS = (L475, F407, K64F, NRF52840, L053)
