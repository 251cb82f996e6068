/**
 * ISO 3166-1 alpha-3 codes with English short names and nationality adjectives, one per line:
 * `CODE|Name|Nationality`. Parsed once by countries.ts. Nationalities shared by two countries name
 * the country in brackets ('Congolese (DRC)'), so a picker never offers one label twice.
 */
export const COUNTRY_TABLE = `
ABW|Aruba|Aruban
AFG|Afghanistan|Afghan
AGO|Angola|Angolan
AIA|Anguilla|Anguillan
ALA|Åland Islands|Ålandic
ALB|Albania|Albanian
AND|Andorra|Andorran
ARE|United Arab Emirates|Emirati
ARG|Argentina|Argentine
ARM|Armenia|Armenian
ASM|American Samoa|American Samoan
ATA|Antarctica|Antarctic
ATF|French Southern Territories|French Southern Territories
ATG|Antigua and Barbuda|Antiguan or Barbudan
AUS|Australia|Australian
AUT|Austria|Austrian
AZE|Azerbaijan|Azerbaijani
BDI|Burundi|Burundian
BEL|Belgium|Belgian
BEN|Benin|Beninese
BES|Bonaire, Sint Eustatius and Saba|Bonaire
BFA|Burkina Faso|Burkinabé
BGD|Bangladesh|Bangladeshi
BGR|Bulgaria|Bulgarian
BHR|Bahrain|Bahraini
BHS|Bahamas|Bahamian
BIH|Bosnia and Herzegovina|Bosnian or Herzegovinian
BLM|Saint Barthélemy|Barthélemois
BLR|Belarus|Belarusian
BLZ|Belize|Belizean
BMU|Bermuda|Bermudian
BOL|Bolivia|Bolivian
BRA|Brazil|Brazilian
BRB|Barbados|Barbadian
BRN|Brunei Darussalam|Bruneian
BTN|Bhutan|Bhutanese
BVT|Bouvet Island|Bouvet Island
BWA|Botswana|Motswana
CAF|Central African Republic|Central African
CAN|Canada|Canadian
CCK|Cocos (Keeling) Islands|Cocos Island
CHE|Switzerland|Swiss
CHL|Chile|Chilean
CHN|China|Chinese
CIV|Côte d'Ivoire|Ivorian
CMR|Cameroon|Cameroonian
COD|Congo, Democratic Republic of the|Congolese (DRC)
COG|Congo|Congolese (Congo)
COK|Cook Islands|Cook Island
COL|Colombia|Colombian
COM|Comoros|Comoran
CPV|Cabo Verde|Cabo Verdean
CRI|Costa Rica|Costa Rican
CUB|Cuba|Cuban
CUW|Curaçao|Curaçaoan
CXR|Christmas Island|Christmas Island
CYM|Cayman Islands|Caymanian
CYP|Cyprus|Cypriot
CZE|Czechia|Czech
DEU|Germany|German
DJI|Djibouti|Djiboutian
DMA|Dominica|Dominican (Dominica)
DNK|Denmark|Danish
DOM|Dominican Republic|Dominican (Dominican Republic)
DZA|Algeria|Algerian
ECU|Ecuador|Ecuadorian
EGY|Egypt|Egyptian
ERI|Eritrea|Eritrean
ESH|Western Sahara|Sahrawi
ESP|Spain|Spanish
EST|Estonia|Estonian
ETH|Ethiopia|Ethiopian
FIN|Finland|Finnish
FJI|Fiji|Fijian
FLK|Falkland Islands (Malvinas)|Falkland Island
FRA|France|French
FRO|Faroe Islands|Faroese
FSM|Micronesia, Federated States of|Micronesian
GAB|Gabon|Gabonese
GBR|United Kingdom|British
GEO|Georgia|Georgian
GGY|Guernsey|British (Guernsey)
GHA|Ghana|Ghanaian
GIB|Gibraltar|Gibraltarian
GIN|Guinea|Guinean
GLP|Guadeloupe|Guadeloupean
GMB|Gambia|Gambian
GNB|Guinea-Bissau|Bissau-Guinean
GNQ|Equatorial Guinea|Equatorial Guinean
GRC|Greece|Greek
GRD|Grenada|Grenadian
GRL|Greenland|Greenlandic
GTM|Guatemala|Guatemalan
GUF|French Guiana|French Guianese
GUM|Guam|Guamanian
GUY|Guyana|Guyanese
HKG|Hong Kong|Hong Konger
HMD|Heard Island and McDonald Islands|Heard Island or McDonald Islands
HND|Honduras|Honduran
HRV|Croatia|Croatian
HTI|Haiti|Haitian
HUN|Hungary|Hungarian
IDN|Indonesia|Indonesian
IMN|Isle of Man|British (Isle of Man)
IND|India|Indian
IOT|British Indian Ocean Territory|British Indian Ocean Territory
IRL|Ireland|Irish
IRN|Iran|Iranian
IRQ|Iraq|Iraqi
ISL|Iceland|Icelandic
ISR|Israel|Israeli
ITA|Italy|Italian
JAM|Jamaica|Jamaican
JEY|Jersey|British (Jersey)
JOR|Jordan|Jordanian
JPN|Japan|Japanese
KAZ|Kazakhstan|Kazakhstani
KEN|Kenya|Kenyan
KGZ|Kyrgyzstan|Kyrgyzstani
KHM|Cambodia|Cambodian
KIR|Kiribati|I-Kiribati
KNA|Saint Kitts and Nevis|Kittitian or Nevisian
KOR|Korea, Republic of|South Korean
KWT|Kuwait|Kuwaiti
LAO|Lao People's Democratic Republic|Lao
LBN|Lebanon|Lebanese
LBR|Liberia|Liberian
LBY|Libya|Libyan
LCA|Saint Lucia|Saint Lucian
LIE|Liechtenstein|Liechtensteiner
LKA|Sri Lanka|Sri Lankan
LSO|Lesotho|Basotho
LTU|Lithuania|Lithuanian
LUX|Luxembourg|Luxembourgish
LVA|Latvia|Latvian
MAC|Macao|Macanese
MAF|Saint Martin (French part)|Saint-Martinoise
MAR|Morocco|Moroccan
MCO|Monaco|Monégasque
MDA|Moldova|Moldovan
MDG|Madagascar|Malagasy
MDV|Maldives|Maldivian
MEX|Mexico|Mexican
MHL|Marshall Islands|Marshallese
MKD|North Macedonia|Macedonian
MLI|Mali|Malian
MLT|Malta|Maltese
MMR|Myanmar|Burmese
MNE|Montenegro|Montenegrin
MNG|Mongolia|Mongolian
MNP|Northern Mariana Islands|Northern Marianan
MOZ|Mozambique|Mozambican
MRT|Mauritania|Mauritanian
MSR|Montserrat|Montserratian
MTQ|Martinique|Martiniquais
MUS|Mauritius|Mauritian
MWI|Malawi|Malawian
MYS|Malaysia|Malaysian
MYT|Mayotte|Mahoran
NAM|Namibia|Namibian
NCL|New Caledonia|New Caledonian
NER|Niger|Nigerien
NFK|Norfolk Island|Norfolk Island
NGA|Nigeria|Nigerian
NIC|Nicaragua|Nicaraguan
NIU|Niue|Niuean
NLD|Netherlands|Dutch
NOR|Norway|Norwegian
NPL|Nepal|Nepali
NRU|Nauru|Nauruan
NZL|New Zealand|New Zealander
OMN|Oman|Omani
PAK|Pakistan|Pakistani
PAN|Panama|Panamanian
PCN|Pitcairn|Pitcairn Island
PER|Peru|Peruvian
PHL|Philippines|Filipino
PLW|Palau|Palauan
PNG|Papua New Guinea|Papua New Guinean
POL|Poland|Polish
PRI|Puerto Rico|Puerto Rican
PRK|Korea, Democratic People's Republic of|North Korean
PRT|Portugal|Portuguese
PRY|Paraguay|Paraguayan
PSE|Palestine, State of|Palestinian
PYF|French Polynesia|French Polynesian
QAT|Qatar|Qatari
REU|Réunion|Réunionese
ROU|Romania|Romanian
RUS|Russian Federation|Russian
RWA|Rwanda|Rwandan
SAU|Saudi Arabia|Saudi Arabian
SDN|Sudan|Sudanese
SEN|Senegal|Senegalese
SGP|Singapore|Singaporean
SGS|South Georgia and the South Sandwich Islands|South Georgia or South Sandwich Islands
SHN|Saint Helena, Ascension and Tristan da Cunha|Saint Helenian
SJM|Svalbard and Jan Mayen|Svalbard
SLB|Solomon Islands|Solomon Island
SLE|Sierra Leone|Sierra Leonean
SLV|El Salvador|Salvadoran
SMR|San Marino|Sammarinese
SOM|Somalia|Somali
SPM|Saint Pierre and Miquelon|Saint-Pierrais or Miquelonnais
SRB|Serbia|Serbian
SSD|South Sudan|South Sudanese
STP|Sao Tome and Principe|São Toméan
SUR|Suriname|Surinamese
SVK|Slovakia|Slovak
SVN|Slovenia|Slovenian
SWE|Sweden|Swedish
SWZ|Eswatini|Swazi
SXM|Sint Maarten (Dutch part)|Sint Maarten
SYC|Seychelles|Seychellois
SYR|Syrian Arab Republic|Syrian
TCA|Turks and Caicos Islands|Turks and Caicos Island
TCD|Chad|Chadian
TGO|Togo|Togolese
THA|Thailand|Thai
TJK|Tajikistan|Tajikistani
TKL|Tokelau|Tokelauan
TKM|Turkmenistan|Turkmen
TLS|Timor-Leste|Timorese
TON|Tonga|Tongan
TTO|Trinidad and Tobago|Trinidadian or Tobagonian
TUN|Tunisia|Tunisian
TUR|Türkiye|Turkish
TUV|Tuvalu|Tuvaluan
TWN|Taiwan|Taiwanese
TZA|Tanzania, United Republic of|Tanzanian
UGA|Uganda|Ugandan
UKR|Ukraine|Ukrainian
UMI|United States Minor Outlying Islands|American (US Minor Outlying Islands)
URY|Uruguay|Uruguayan
USA|United States of America|American
UZB|Uzbekistan|Uzbekistani
VAT|Holy See|Vatican
VCT|Saint Vincent and the Grenadines|Vincentian
VEN|Venezuela|Venezuelan
VGB|Virgin Islands (British)|British Virgin Islander
VIR|Virgin Islands (U.S.)|U.S. Virgin Islander
VNM|Viet Nam|Vietnamese
VUT|Vanuatu|Ni-Vanuatu
WLF|Wallis and Futuna|Wallisian or Futunan
WSM|Samoa|Samoan
YEM|Yemen|Yemeni
ZAF|South Africa|South African
ZMB|Zambia|Zambian
ZWE|Zimbabwe|Zimbabwean
ANT|Netherlands Antilles|Dutch Antillean
SCG|Serbia and Montenegro|Serbian or Montenegrin
YUG|Yugoslavia|Yugoslav
ZAR|Zaire|Zairean
TMP|East Timor|East Timorese
CSK|Czechoslovakia|Czechoslovak
SUN|USSR|Soviet
`;

/** Historic codes kept so old records still show a name; hidden from pickers. */
export const DEPRECATED_COUNTRY_CODES = ['ANT', 'SCG', 'YUG', 'ZAR', 'TMP', 'CSK', 'SUN'];

/**
 * Territories we judge absent from the criminal-record e-bulk interface's country list (no
 * permanent population): a '(for DBS)' country alternative is required for them.
 */
export const EBULK_MISSING_COUNTRY_CODES = ['ATA', 'ATF', 'BVT', 'HMD', 'IOT', 'SGS', 'UMI'];
