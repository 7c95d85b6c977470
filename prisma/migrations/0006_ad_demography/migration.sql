-- AlterTable
ALTER TABLE "ads" ADD COLUMN     "beneficiary" TEXT,
ADD COLUMN     "languages" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "payer" TEXT,
ADD COLUMN     "publisherPlatforms" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "tiktok_items" ADD COLUMN     "paidForBy" TEXT;

-- CreateTable
CREATE TABLE "ad_demography" (
    "adId" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "ageRange" TEXT NOT NULL,
    "gender" TEXT NOT NULL,
    "reach" BIGINT NOT NULL,

    CONSTRAINT "ad_demography_pkey" PRIMARY KEY ("adId","country","ageRange","gender")
);

-- CreateIndex
CREATE INDEX "ad_demography_country_idx" ON "ad_demography"("country");

-- AddForeignKey
ALTER TABLE "ad_demography" ADD CONSTRAINT "ad_demography_adId_fkey" FOREIGN KEY ("adId") REFERENCES "ads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
