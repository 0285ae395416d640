import { z } from 'zod';

/** Brands: workspace context passed to generate and plan (CONTRACT.md "Brand"). */

export const Brand = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    audience: z.string().nullable(),
    themes: z.array(z.string()).describe('Content themes; plan uses them as pillars'),
    linkPolicy: z.string().nullable(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Brand' });
export type Brand = z.output<typeof Brand>;

const Name = z.string().trim().min(1).max(200);
const Text = (max: number) => z.string().trim().max(max).nullable();
const Themes = z.array(z.string().trim().min(1).max(80)).max(20);

export const BrandCreateRequest = z
  .object({
    name: Name,
    description: Text(2_000).optional(),
    audience: Text(500).optional(),
    themes: Themes.optional(),
    linkPolicy: Text(500).optional().describe('e.g. "links go in the first comment"'),
  })
  .strict()
  .meta({ id: 'BrandCreateRequest' });
export type BrandCreateRequest = z.output<typeof BrandCreateRequest>;

export const BrandUpdateRequest = z
  .object({
    name: Name.optional(),
    description: Text(2_000).optional(),
    audience: Text(500).optional(),
    themes: Themes.optional(),
    linkPolicy: Text(500).optional(),
  })
  .strict()
  .meta({ id: 'BrandUpdateRequest' });
export type BrandUpdateRequest = z.output<typeof BrandUpdateRequest>;

export const BrandResult = z.object({ brand: Brand }).meta({ id: 'BrandResult' });
export const BrandListResult = z.object({ brands: z.array(Brand) }).meta({ id: 'BrandListResult' });
