/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_REGS_H
#define FEC_REGS_H

/**
 * @file
 * FEC/ENET programmer-visible contract shared by the PMD and its software model:
 * register offsets, bit fields, buffer descriptor layouts and MIB counters.
 */

#include <stdint.h>

#define FEC_REG_SPACE 0x1000u

/* IEEE 1588 timer (Linux fec_ptp.c): control, value, period, correction, increment. */
#define FEC_ATCR             0x400u
#define FEC_ATVR             0x404u
#define FEC_ATOFF            0x408u
#define FEC_ATPER            0x40Cu
#define FEC_ATCOR            0x410u
#define FEC_ATINC            0x414u
#define FEC_ATSTMP           0x418u
#define FEC_ATCR_EN          (1u << 0)  /* counter runs */
#define FEC_ATCR_PEREN       (1u << 4)  /* period event */
#define FEC_ATCR_PINPER      (1u << 7)  /* period pulse on the pin */
#define FEC_ATCR_RESTART     (1u << 9)  /* counter to 0 (self-clearing) */
#define FEC_ATCR_CAPTURE     (1u << 11) /* counter into ATVR (self-clearing) */
#define FEC_ATINC_INC_MASK   0x7Fu      /* ns added per clock */
#define FEC_ATINC_CORR_SHIFT 8          /* ns added on a correction clock */
#define FEC_ATINC_CORR_MASK  (0x7Fu << FEC_ATINC_CORR_SHIFT)

#define FEC_EIR  0x004u
#define FEC_EIMR 0x008u
#define FEC_RDAR 0x010u
#define FEC_TDAR 0x014u
#define FEC_ECR  0x024u
#define FEC_MMFR 0x040u
#define FEC_MSCR 0x044u
#define FEC_MIBC 0x064u
#define FEC_RCR  0x084u
#define FEC_TCR  0x0C4u
#define FEC_PALR 0x0E4u
#define FEC_PAUR 0x0E8u
#define FEC_OPD  0x0ECu
#define FEC_IAUR 0x118u
#define FEC_IALR 0x11Cu
#define FEC_GAUR 0x120u
#define FEC_GALR 0x124u
#define FEC_TFWR 0x144u
#define FEC_RDSR 0x180u
#define FEC_TDSR 0x184u
#define FEC_MRBR 0x188u
#define FEC_RSFL 0x190u
#define FEC_RSEM 0x194u
#define FEC_RAEM 0x198u
#define FEC_RAFL 0x19Cu
#define FEC_TSEM 0x1A0u
#define FEC_TAEM 0x1A4u
#define FEC_TAFL 0x1A8u
#define FEC_TIPG 0x1ACu
#define FEC_FTRL 0x1B0u
#define FEC_TACC 0x1C0u
#define FEC_RACC 0x1C4u

/* The AVB rings 1 and 2 (i.MX6SX, i.MX8M): start, buffer size, doorbells. */
#define FEC_RDSR1    0x160u
#define FEC_TDSR1    0x164u
#define FEC_MRBR1    0x168u
#define FEC_RDSR2    0x16Cu
#define FEC_TDSR2    0x170u
#define FEC_MRBR2    0x174u
#define FEC_RCMR1    0x1C8u
#define FEC_RCMR2    0x1CCu
#define FEC_DMA_CFG1 0x1D8u
#define FEC_DMA_CFG2 0x1DCu
#define FEC_RDAR1    0x1E0u
#define FEC_TDAR1    0x1E4u
#define FEC_RDAR2    0x1E8u
#define FEC_TDAR2    0x1ECu
#define FEC_QOS      0x1F0u

/** Rings of an AVB-capable ENET; single-ring IPs have ring 0 only. */
#define FEC_MAX_RINGS 3u

/*
 * Interrupt coalescing per ring (TXICn, RXICn; Linux's HAS_COALESCE SoCs):
 * the ring's frame event (TXF/RXF n) is raised after ICFT frames, or ICTT
 * periods of 64 clocks after the first frame not yet signalled, whichever
 * comes first. ICCS selects the clock (1: the ENET system clock, Linux's
 * clk_ahb). The i.MX8MP RM calls ICFT or ICTT 0 with ICEN unpredictable.
 */
#define FEC_TXIC(q)        (0x0F0u + 4u * (q))
#define FEC_RXIC(q)        (0x100u + 4u * (q))
#define FEC_IC_EN          (1u << 31)
#define FEC_IC_CS          (1u << 30)
#define FEC_IC_ICFT(n)     (((uint32_t)(n)&0xFFu) << 20)
#define FEC_IC_ICTT(n)     ((uint32_t)(n)&0xFFFFu)
#define FEC_IC_ICFT_GET(v) (((v) >> 20) & 0xFFu)
#define FEC_IC_ICTT_GET(v) ((v)&0xFFFFu)
/** ICTT counts periods of this many clocks. */
#define FEC_IC_TT_CLOCKS 64u

/* RCMR1/2: MATCHEN, then four 3-bit VLAN PCP compare values (a frame whose PCP equals one goes to the ring). */
#define FEC_RCMR_MATCHEN       (1u << 16)
#define FEC_RCMR_CMP(v, n)     (((uint32_t)(v)&7u) << ((n)*4u))
#define FEC_RCMR_CMP_GET(r, n) (((r) >> ((n)*4u)) & 7u)
/* DMA_CFG1/2: the TX class of ring 1/2 is on; IDLE_SLOPE (credit shaper) in 15:0. */
#define FEC_DMA_CLASS_EN        (1u << 16)
#define FEC_DMA_IDLE_SLOPE_MASK 0xFFFFu

/**
 * RDAR of a ring.
 *
 * @param q
 *   Ring (0..2).
 * @return
 *   Register offset.
 */
static inline uint32_t
fec_rdar_off(unsigned int q)
{
	return q == 0 ? 0x010u : 0x1E0u + 8u * (q - 1u);
}

/**
 * TDAR of a ring.
 *
 * @param q
 *   Ring (0..2).
 * @return
 *   Register offset.
 */
static inline uint32_t
fec_tdar_off(unsigned int q)
{
	return q == 0 ? 0x014u : 0x1E4u + 8u * (q - 1u);
}

/**
 * RDSR of a ring.
 *
 * @param q
 *   Ring (0..2).
 * @return
 *   Register offset.
 */
static inline uint32_t
fec_rdsr_off(unsigned int q)
{
	return q == 0 ? 0x180u : 0x160u + 0xCu * (q - 1u);
}

/**
 * TDSR of a ring.
 *
 * @param q
 *   Ring (0..2).
 * @return
 *   Register offset.
 */
static inline uint32_t
fec_tdsr_off(unsigned int q)
{
	return q == 0 ? 0x184u : 0x164u + 0xCu * (q - 1u);
}

/**
 * MRBR of a ring.
 *
 * @param q
 *   Ring (0..2).
 * @return
 *   Register offset.
 */
static inline uint32_t
fec_mrbr_off(unsigned int q)
{
	return q == 0 ? 0x188u : 0x168u + 0xCu * (q - 1u);
}

/**
 * EIR/EIMR RXF bit of a ring (ring 0: bit 25; RXF1 bit 1, RXF2 bit 5).
 *
 * @param q
 *   Ring (0..2).
 * @return
 *   The bit.
 */
static inline uint32_t
fec_eir_rxf(unsigned int q)
{
	return q == 0 ? 1u << 25 : 1u << (4u * q - 3u);
}

/**
 * EIR RXB bit of a ring (ring 0: bit 24; RXB1 bit 0, RXB2 bit 4).
 *
 * @param q
 *   Ring (0..2).
 * @return
 *   The bit.
 */
static inline uint32_t
fec_eir_rxb(unsigned int q)
{
	return q == 0 ? 1u << 24 : 1u << (4u * q - 4u);
}

/**
 * EIR TXF bit of a ring (ring 0: bit 27; TXF1 bit 3, TXF2 bit 7).
 *
 * @param q
 *   Ring (0..2).
 * @return
 *   The bit.
 */
static inline uint32_t
fec_eir_txf(unsigned int q)
{
	return q == 0 ? 1u << 27 : 1u << (4u * q - 1u);
}

/**
 * EIR TXB bit of a ring (ring 0: bit 26; TXB1 bit 2, TXB2 bit 6).
 *
 * @param q
 *   Ring (0..2).
 * @return
 *   The bit.
 */
static inline uint32_t
fec_eir_txb(unsigned int q)
{
	return q == 0 ? 1u << 26 : 1u << (4u * q - 2u);
}

#define FEC_ECR_RESET   (1u << 0)
#define FEC_ECR_ETHEREN (1u << 1)
#define FEC_ECR_EN1588  (1u << 4)
#define FEC_ECR_SPEED   (1u << 5)
#define FEC_ECR_DBSWP   (1u << 8)

#define FEC_RCR_LOOP         (1u << 0)
#define FEC_RCR_DRT          (1u << 1)
#define FEC_RCR_MII_MODE     (1u << 2)
#define FEC_RCR_PROM         (1u << 3)
#define FEC_RCR_BC_REJ       (1u << 4)
#define FEC_RCR_FCE          (1u << 5)
#define FEC_RCR_RGMII        (1u << 6)
#define FEC_RCR_RMII         (1u << 8)
#define FEC_RCR_RMII_10T     (1u << 9)
#define FEC_RCR_CRCFWD       (1u << 14)
#define FEC_RCR_NLC          (1u << 30)
#define FEC_RCR_MAX_FL_SHIFT 16
#define FEC_RCR_MAX_FL_MASK  (0x3FFFu << FEC_RCR_MAX_FL_SHIFT)

#define FEC_TCR_GTS  (1u << 0)
#define FEC_TCR_FDEN (1u << 2)

#define FEC_EIR_BABR  (1u << 30) /* RX frame longer than MAX_FL */
#define FEC_EIR_BABT  (1u << 29) /* TX frame longer than MAX_FL (sent whole, RM) */
#define FEC_EIR_GRA   (1u << 28)
#define FEC_EIR_TXF   (1u << 27)
#define FEC_EIR_TXB   (1u << 26)
#define FEC_EIR_RXF   (1u << 25)
#define FEC_EIR_RXB   (1u << 24)
#define FEC_EIR_MII   (1u << 23)
#define FEC_EIR_EBERR (1u << 22)
#define FEC_EIR_LC    (1u << 21)
#define FEC_EIR_RL    (1u << 20)
#define FEC_EIR_UN    (1u << 19)

/* IEEE 1588 events: a TX stamp written, the counter at ATPER. */
#define FEC_EIR_TS_AVAIL (1u << 16)
#define FEC_EIR_TS_TIMER (1u << 15)

#define FEC_DAR_ACTIVE (1u << 24)

#define FEC_MMFR_ST_C22  (1u << 30)
#define FEC_MMFR_OP_WR   (1u << 28)
#define FEC_MMFR_OP_RD   (2u << 28)
#define FEC_MMFR_PA(a)   ((uint32_t)(a) << 23)
#define FEC_MMFR_RA(r)   ((uint32_t)(r) << 18)
#define FEC_MMFR_TA      (2u << 16)
#define FEC_MMFR_DATA(v) ((v)&0xFFFFu)

#define FEC_MIBC_DIS   (1u << 31)
#define FEC_MIBC_IDLE  (1u << 30)
#define FEC_MIBC_CLEAR (1u << 29)

#define FEC_TFWR_STRFWD (1u << 8)

#define FEC_RACC_SHIFT16 (1u << 7)

/* TACC: checksum insertion into every frame (the BD's IINS/PINS do it per frame). */
#define FEC_TACC_IPCHK  (1u << 3)
#define FEC_TACC_PROCHK (1u << 4)

#define FEC_PAUR_TYPE 0x8808u

/* Reset values (QEMU imx.enet, reference manual). */
#define FEC_ECR_RESET_VAL  0xF0000000u
#define FEC_RCR_RESET_VAL  0x05EE0001u
#define FEC_MIBC_RESET_VAL 0xC0000000u
#define FEC_OPD_RESET_VAL  0x00010000u
#define FEC_FTRL_RESET_VAL 0x7FFu

/* Buffer descriptor status/control (cbd_sc). */
#define FEC_BD_E     0x8000u /* RX: empty, hardware owns */
#define FEC_BD_R     0x8000u /* TX: ready, hardware owns */
#define FEC_BD_W     0x2000u
#define FEC_BD_L     0x0800u
#define FEC_BD_TC    0x0400u
#define FEC_BD_RX_M  0x0100u
#define FEC_BD_RX_BC 0x0080u
#define FEC_BD_RX_MC 0x0040u
#define FEC_BD_RX_LG 0x0020u
#define FEC_BD_RX_NO 0x0010u
#define FEC_BD_RX_CR 0x0004u
#define FEC_BD_RX_OV 0x0002u
#define FEC_BD_RX_TR 0x0001u
/* RX error bits a driver drops the frame for (Linux's test, L inverted). */
#define FEC_BD_RX_ERRORS \
	(FEC_BD_RX_LG | FEC_BD_RX_NO | FEC_BD_RX_CR | FEC_BD_RX_OV | FEC_BD_RX_TR | FEC_BD_L)
/* Status bits cleared when a BD is recycled (Linux BD_ENET_RX_STATS). */
#define FEC_BD_RX_STATS 0x013Fu

/* Enhanced descriptor extension bits. */
#define FEC_BD_EX_RX_ME   (1u << 31) /* MAC error (valid with L; RM?) */
#define FEC_BD_EX_RX_PE   (1u << 26) /* PHY error: RX_ER during the frame (RM?) */
#define FEC_BD_EX_RX_CE   (1u << 25) /* collision during reception (RM?) */
#define FEC_BD_EX_RX_INT  (1u << 23)
#define FEC_BD_EX_RX_UC   (1u << 24)
#define FEC_BD_EX_RX_ICE  (1u << 5) /* IP header checksum error */
#define FEC_BD_EX_RX_PCR  (1u << 4) /* TCP/UDP checksum error */
#define FEC_BD_EX_RX_VLAN (1u << 2)
#define FEC_BD_EX_RX_IPV6 (1u << 1)
#define FEC_BD_EX_RX_FRAG (1u << 0)
/*
 * ESC errors the driver drops the frame for: the RM calls such a frame
 * invalid. They sit in bits 31:16, clear of the cbd_sc bits, so one 32-bit
 * word holds both kinds of reasons (FEC_RX_ERR_TABLE).
 */
#define FEC_BD_EX_RX_ERRORS (FEC_BD_EX_RX_ME | FEC_BD_EX_RX_PE | FEC_BD_EX_RX_CE)
#define FEC_BD_EX_TX_INT    (1u << 30)
#define FEC_BD_EX_TX_TS     (1u << 29) /* write the 1588 counter into ts on write-back */
#define FEC_BD_EX_TX_PINS   (1u << 28) /* insert the TCP/UDP checksum */
#define FEC_BD_EX_TX_IINS   (1u << 27) /* insert the IPv4 header checksum */
#define FEC_BD_EX_BDU       (1u << 31)
/* TX errors written back (Linux fec.h BD_ENET_TX_*; **RM?**): legacy status, enhanced ESC. */
#define FEC_BD_TX_LC     0x0080u    /* late collision */
#define FEC_BD_TX_RL     0x0040u    /* retransmission limit */
#define FEC_BD_TX_UN     0x0002u    /* underrun */
#define FEC_BD_EX_TX_TXE (1u << 15) /* any TX error */
#define FEC_BD_EX_TX_UE  (1u << 13) /* underflow */
#define FEC_BD_EX_TX_EE  (1u << 12) /* excess collisions */
#define FEC_BD_EX_TX_LCE (1u << 10) /* late collision */

/*
 * Enhanced RX BD prot word (RM?): payload checksum (the 16-bit one's complement
 * sum of the bytes after the IP header) in 15:0, the IP header's protocol in
 * 23:16, the IP plus protocol header length in 32-bit words in 31:27 (0: no IP
 * header found or it could not be parsed).
 */
#define FEC_BD_EX_PROT_SUM_MASK    0xFFFFu
#define FEC_BD_EX_PROT_PROTO_SHIFT 16
#define FEC_BD_EX_PROT_HLEN_SHIFT  27

/** Legacy 8-byte buffer descriptor (little-endian, ECR.DBSWP=1). */
struct fec_bd {
	uint16_t datlen; /**< TX length / RX bytes (whole frame on L) */
	uint16_t sc;     /**< status and control */
	uint32_t addr;   /**< 32-bit bus address of the buffer */
};

/** Enhanced 32-byte buffer descriptor (ECR.EN1588=1). */
struct fec_bd_ex {
	struct fec_bd bd; /**< legacy part */
	uint32_t esc;     /**< extended status/control */
	uint32_t prot;    /**< checksum / header info */
	uint32_t bdu;     /**< BDU: written back by the uDMA */
	uint32_t ts;      /**< IEEE 1588 timestamp */
	uint32_t res[2];  /**< reserved */
};

#define FEC_BD_SIZE_LEGACY   8u
#define FEC_BD_SIZE_ENHANCED 32u

/* Ring geometry: one BD slice per ring, as NXP's UIO map1 is carved. */
#define FEC_RING_MAX     512u
#define FEC_RING_SLICE   (FEC_RING_MAX * FEC_BD_SIZE_ENHANCED)
#define FEC_NB_SLICES    6u
#define FEC_BD_AREA_SIZE (FEC_RING_SLICE * FEC_NB_SLICES)

/* Largest buffer the driver gives the MAC (Linux PKT_MAXBUF_SIZE). */
#define FEC_MAX_BUF 1984u

/*
 * Largest frame with RX scatter: FTRL's reset value, what the MAC of the
 * non-jumbo IPs takes (jumbo frames, FEC_QUIRK_JUMBO_FRAME, are not done).
 */
#define FEC_MAX_FRAME 2047u

/* MIB counters: X(name, offset). Names are the xstats names. */
#define FEC_MIB_TABLE(X)             \
	X(rmon_t_drop, 0x200)        \
	X(rmon_t_packets, 0x204)     \
	X(rmon_t_bc_pkt, 0x208)      \
	X(rmon_t_mc_pkt, 0x20C)      \
	X(rmon_t_crc_align, 0x210)   \
	X(rmon_t_undersize, 0x214)   \
	X(rmon_t_oversize, 0x218)    \
	X(rmon_t_frag, 0x21C)        \
	X(rmon_t_jab, 0x220)         \
	X(rmon_t_col, 0x224)         \
	X(rmon_t_p64, 0x228)         \
	X(rmon_t_p65to127, 0x22C)    \
	X(rmon_t_p128to255, 0x230)   \
	X(rmon_t_p256to511, 0x234)   \
	X(rmon_t_p512to1023, 0x238)  \
	X(rmon_t_p1024to2047, 0x23C) \
	X(rmon_t_p_gte2048, 0x240)   \
	X(rmon_t_octets, 0x244)      \
	X(ieee_t_drop, 0x248)        \
	X(ieee_t_frame_ok, 0x24C)    \
	X(ieee_t_1col, 0x250)        \
	X(ieee_t_mcol, 0x254)        \
	X(ieee_t_def, 0x258)         \
	X(ieee_t_lcol, 0x25C)        \
	X(ieee_t_excol, 0x260)       \
	X(ieee_t_macerr, 0x264)      \
	X(ieee_t_cserr, 0x268)       \
	X(ieee_t_sqe, 0x26C)         \
	X(ieee_t_fdxfc, 0x270)       \
	X(ieee_t_octets_ok, 0x274)   \
	X(rmon_r_packets, 0x284)     \
	X(rmon_r_bc_pkt, 0x288)      \
	X(rmon_r_mc_pkt, 0x28C)      \
	X(rmon_r_crc_align, 0x290)   \
	X(rmon_r_undersize, 0x294)   \
	X(rmon_r_oversize, 0x298)    \
	X(rmon_r_frag, 0x29C)        \
	X(rmon_r_jab, 0x2A0)         \
	X(rmon_r_p64, 0x2A8)         \
	X(rmon_r_p65to127, 0x2AC)    \
	X(rmon_r_p128to255, 0x2B0)   \
	X(rmon_r_p256to511, 0x2B4)   \
	X(rmon_r_p512to1023, 0x2B8)  \
	X(rmon_r_p1024to2047, 0x2BC) \
	X(rmon_r_p_gte2048, 0x2C0)   \
	X(rmon_r_octets, 0x2C4)      \
	X(ieee_r_drop, 0x2C8)        \
	X(ieee_r_frame_ok, 0x2CC)    \
	X(ieee_r_crc, 0x2D0)         \
	X(ieee_r_align, 0x2D4)       \
	X(ieee_r_macerr, 0x2D8)      \
	X(ieee_r_fdxfc, 0x2DC)       \
	X(ieee_r_octets_ok, 0x2E0)

#define FEC_MIB_ENUM(n, o) FEC_MIB_##n,
/** Index of each MIB counter in FEC_MIB_TABLE order. */
enum fec_mib_id { FEC_MIB_TABLE(FEC_MIB_ENUM) FEC_MIB_NB };
#undef FEC_MIB_ENUM

#define FEC_MIB_OFF(n, o) FEC_MIB_OFF_##n = (o),
/** Register offset of each MIB counter. */
enum fec_mib_off { FEC_MIB_TABLE(FEC_MIB_OFF) };
#undef FEC_MIB_OFF

#define FEC_MIB_FIRST 0x200u
#define FEC_MIB_LAST  0x2E0u

/* PHY (clause 22) registers the driver and the model agree on. */
#define FEC_PHY_BMCR     0
#define FEC_PHY_BMSR     1
#define FEC_PHY_ID1      2
#define FEC_PHY_ID2      3
#define FEC_PHY_ANAR     4
#define FEC_PHY_ANLPAR   5
#define FEC_PHY_CTRL1000 9
#define FEC_PHY_STAT1000 10
#define FEC_BMCR_ANRST   0x0200u /* restart autonegotiation */
#define FEC_BMCR_ISO     0x0400u /* isolate */
#define FEC_BMCR_PDOWN   0x0800u
#define FEC_BMCR_ANENA   0x1000u /* autonegotiation enable */
#define FEC_BMSR_LINK    0x0004u
#define FEC_BMSR_ANABLE  0x0008u /* the PHY can autonegotiate */
#define FEC_BMSR_ANEG_OK 0x0020u
#define FEC_ADV_10HD     0x0020u
#define FEC_ADV_10FD     0x0040u
#define FEC_ADV_100HD    0x0080u
#define FEC_ADV_100FD    0x0100u
#define FEC_ADV_1000FD   0x0200u /* CTRL1000; STAT1000 has it at bit 11 */
#define FEC_ADV_1000HD   0x0100u

/* ANAR/ANLPAR pause abilities (IEEE 802.3 28.2.1.2: PAUSE, ASM_DIR). */
#define FEC_ADV_PAUSE 0x0400u
#define FEC_ADV_ASYM  0x0800u

#endif /* FEC_REGS_H */
